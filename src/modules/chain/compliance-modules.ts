import type { MikroORM } from '@mikro-orm/postgresql';
import { encodeDeployData, encodeFunctionData, parseUnits, type Abi, type Hex } from 'viem';
import type { ChainHandle } from './chains';
import { ChainComplianceModule, type SequenceStep } from './compliance-module.entity';
import { IDENTITY_REGISTRY_ABI, MODULAR_COMPLIANCE_ABI, T_REX, TOKEN_ABI } from './contracts';
import type { SetupWrite } from './suite-deployment';

/*
 * The T-REX 4.1.6 compliance modules a token's rules need (contracts/compliance/modular/modules/
 * in the package). Every module is UUPS-upgradeable (AbstractModuleUpgradeable): deployed once per
 * chain as an implementation behind a `ModuleProxy` that calls `initialize()` (the deployer, the
 * agent key, owns it), and keeps its state per modular compliance, so one of each serves every
 * token. A module's settings are written by the compliance it is bound to (`onlyComplianceCall`):
 * through the factory's `complianceSettings` at deployment, then `callModuleFunction` by the
 * compliance's owner, the agent key (the factory hands it the compliance).
 */

/** What the token enforces of a rule set, in the token's terms. */
export interface ComplianceRules {
  /** ISO 3166-1 numeric countries a receiver may be registered with; null: any not restricted. */
  allowedCountries: number[] | null;
  /** ISO 3166-1 numeric countries a receiver may not be registered with. */
  blockedCountries: number[];
  /** Tokens (decimal) one identity may hold at most; null: no limit. */
  maxBalance: string | null;
  /** Tokens (decimal) in issue at most; null: no cap. */
  supplyLimit: string | null;
}

export const COMPLIANCE_MODULES = ['CountryAllowModule', 'CountryRestrictModule', 'MaxBalanceModule', 'SupplyLimitModule'] as const;
export type ComplianceModuleName = (typeof COMPLIANCE_MODULES)[number];
export type ModuleAddresses = Record<ComplianceModuleName, Hex>;

/** Whether the rules need the module bound. */
function needs(rules: ComplianceRules | null, name: ComplianceModuleName): boolean {
  if (!rules) return false;
  if (name === 'CountryAllowModule') return rules.allowedCountries !== null;
  if (name === 'CountryRestrictModule') return rules.blockedCountries.length > 0;
  if (name === 'MaxBalanceModule') return rules.maxBalance !== null;
  return rules.supplyLimit !== null;
}

const minus = (a: number[], b: number[]) => a.filter((c) => !b.includes(c));

/** The module calls (through the compliance) that set the module to the rules, given what it was set to. */
function settings(name: ComplianceModuleName, rules: ComplianceRules, before: ComplianceRules | null, decimals: number): { data: Hex; step: string }[] {
  switch (name) {
    case 'CountryAllowModule': {
      const was = before?.allowedCountries ?? [];
      const allowed = rules.allowedCountries ?? [];
      const out = [
        {
          data: encodeFunctionData({ abi: T_REX.CountryAllowModule.abi, functionName: 'batchAllowCountries', args: [allowed] }),
          step: `batchAllowCountries(${allowed.join(',')})`,
        },
      ];
      const gone = minus(was, allowed);
      if (gone.length)
        out.push({
          data: encodeFunctionData({ abi: T_REX.CountryAllowModule.abi, functionName: 'batchDisallowCountries', args: [gone] }),
          step: `batchDisallowCountries(${gone.join(',')})`,
        });
      return out;
    }
    case 'CountryRestrictModule': {
      // Restricting a country twice reverts ("country already restricted"): only the difference.
      const was = before?.blockedCountries ?? [];
      const added = minus(rules.blockedCountries, was);
      const gone = minus(was, rules.blockedCountries);
      const out: { data: Hex; step: string }[] = [];
      if (added.length)
        out.push({
          data: encodeFunctionData({ abi: T_REX.CountryRestrictModule.abi, functionName: 'batchRestrictCountries', args: [added] }),
          step: `batchRestrictCountries(${added.join(',')})`,
        });
      if (gone.length)
        out.push({
          data: encodeFunctionData({ abi: T_REX.CountryRestrictModule.abi, functionName: 'batchUnrestrictCountries', args: [gone] }),
          step: `batchUnrestrictCountries(${gone.join(',')})`,
        });
      return out;
    }
    case 'MaxBalanceModule':
      return [
        {
          data: encodeFunctionData({ abi: T_REX.MaxBalanceModule.abi, functionName: 'setMaxBalance', args: [parseUnits(rules.maxBalance!, decimals)] }),
          step: `setMaxBalance(${rules.maxBalance})`,
        },
      ];
    case 'SupplyLimitModule':
      return [
        {
          data: encodeFunctionData({ abi: T_REX.SupplyLimitModule.abi, functionName: 'setSupplyLimit', args: [parseUnits(rules.supplyLimit!, decimals)] }),
          step: `setSupplyLimit(${rules.supplyLimit})`,
        },
      ];
  }
}

/** The chain's modules, deployed on first use; and the calls that bind and set them for a token. */
export class ComplianceModules {
  private readonly running = new Map<string, Promise<ModuleAddresses>>();

  constructor(
    private readonly orm: MikroORM,
    private readonly write: SetupWrite,
  ) {}

  /** The chain's four modules, each deployed once (a crash between two deploys the missing ones again). */
  async addresses(chainId: string): Promise<ModuleAddresses> {
    const rows = await this.orm.em.fork().find(ChainComplianceModule, { chainId });
    if (rows.length === COMPLIANCE_MODULES.length) return Object.fromEntries(rows.map((r) => [r.name, r.address as Hex])) as ModuleAddresses;
    const running = this.running.get(chainId);
    if (running) return running;
    const p = (async () => {
      const found = new Map(rows.map((r) => [r.name, r.address as Hex]));
      for (const name of COMPLIANCE_MODULES) {
        if (found.has(name)) continue;
        // Each module's ABI is its own type; only their shared `initialize()` is called here.
        const module = T_REX[name] as { abi: Abi; bytecode: Hex };
        const impl = (await this.write(chainId, `${name} implementation`, null, encodeDeployData(module))).contractAddress as Hex;
        const init = encodeFunctionData({ abi: module.abi, functionName: 'initialize', args: [] });
        const proxy = (await this.write(chainId, `${name} proxy`, null, encodeDeployData({ ...T_REX.ModuleProxy, args: [impl, init] }))).contractAddress as Hex;
        const em = this.orm.em.fork();
        em.create(ChainComplianceModule, { chainId, name, address: proxy.toLowerCase(), createdAt: new Date() });
        await em.flush();
        found.set(name, proxy);
      }
      return Object.fromEntries(found) as ModuleAddresses;
    })().finally(() => this.running.delete(chainId));
    this.running.set(chainId, p);
    return p;
  }

  /**
   * `deployTREXSuite`'s `complianceModules` and `complianceSettings`: the factory binds each
   * module listed (once) and makes the call beside it through the compliance, so a module with
   * two settings is listed twice. Empty for rules that need none.
   */
  async forDeployment(chainId: string, rules: ComplianceRules | null, decimals: number): Promise<{ complianceModules: Hex[]; complianceSettings: Hex[] }> {
    const names = COMPLIANCE_MODULES.filter((n) => needs(rules, n));
    if (!names.length) return { complianceModules: [], complianceSettings: [] };
    const modules = await this.addresses(chainId);
    const pairs = names.flatMap((n) => settings(n, rules!, null, decimals).map((s) => [modules[n], s.data] as const));
    return { complianceModules: pairs.map(([m]) => m), complianceSettings: pairs.map(([, d]) => d) };
  }

  /**
   * The calls that take a deployed token's compliance from `before` to `rules`, in order: a module
   * no longer needed removed; one newly needed bound then set (a maximum balance on a token with
   * holders first told each identity's balance: `batchPreSetModuleState`, which T-REX allows
   * only before the module is bound); one kept set to the new values. What is bound is read
   * on chain; `holders` are the wallets that may hold the token.
   */
  async changeSteps(
    chain: ChainHandle,
    token: { address: string; decimals: number; holders: string[] },
    before: ComplianceRules | null,
    rules: ComplianceRules | null,
  ): Promise<SequenceStep[]> {
    const read = chain.client;
    const compliance = await read.readContract({ address: token.address as Hex, abi: TOKEN_ABI, functionName: 'compliance' });
    const bound = (await read.readContract({ address: compliance, abi: MODULAR_COMPLIANCE_ABI, functionName: 'getModules' })).map((a) => a.toLowerCase());
    const modules = await this.addresses(chain.config.chainId);
    const onCompliance = (functionName: 'addModule' | 'removeModule', module: Hex) =>
      encodeFunctionData({ abi: MODULAR_COMPLIANCE_ABI, functionName, args: [module] });
    const steps: SequenceStep[] = [];
    for (const name of COMPLIANCE_MODULES) {
      const module = modules[name];
      const isBound = bound.includes(module.toLowerCase());
      const wanted = needs(rules, name);
      if (!wanted) {
        if (isBound) steps.push({ to: compliance, data: onCompliance('removeModule', module), step: `removeModule(${name})` });
        continue;
      }
      if (!isBound) {
        if (name === 'MaxBalanceModule') steps.push(...(await this.preset(chain, compliance, module, token)));
        steps.push({ to: compliance, data: onCompliance('addModule', module), step: `addModule(${name})` });
      }
      for (const s of settings(name, rules!, isBound ? before : null, token.decimals))
        steps.push({
          to: compliance,
          data: encodeFunctionData({ abi: MODULAR_COMPLIANCE_ABI, functionName: 'callModuleFunction', args: [s.data, module] }),
          step: `${name}.${s.step}`,
        });
    }
    return steps;
  }

  /** MaxBalanceModule counts per identity from its binding on: a token with supply tells it what each identity holds first. */
  private async preset(chain: ChainHandle, compliance: Hex, module: Hex, token: { address: string; holders: string[] }): Promise<SequenceStep[]> {
    const read = chain.client;
    const supply = await read.readContract({ address: token.address as Hex, abi: TOKEN_ABI, functionName: 'totalSupply' });
    if (supply === 0n) return [];
    const registry = await read.readContract({ address: token.address as Hex, abi: TOKEN_ABI, functionName: 'identityRegistry' });
    const byIdentity = new Map<Hex, bigint>();
    for (const wallet of new Set(token.holders.map((h) => h.toLowerCase() as Hex))) {
      const balance = await read.readContract({ address: token.address as Hex, abi: TOKEN_ABI, functionName: 'balanceOf', args: [wallet] });
      if (balance === 0n) continue;
      const identity = await read.readContract({ address: registry, abi: IDENTITY_REGISTRY_ABI, functionName: 'identity', args: [wallet] });
      byIdentity.set(identity, (byIdentity.get(identity) ?? 0n) + balance);
    }
    const abi = T_REX.MaxBalanceModule.abi;
    if (!byIdentity.size)
      return [{ to: module, data: encodeFunctionData({ abi, functionName: 'presetCompleted', args: [compliance] }), step: 'MaxBalanceModule.presetCompleted' }];
    return [
      {
        to: module,
        data: encodeFunctionData({ abi, functionName: 'batchPreSetModuleState', args: [compliance, [...byIdentity.keys()], [...byIdentity.values()]] }),
        step: `MaxBalanceModule.batchPreSetModuleState(${byIdentity.size} identities)`,
      },
    ];
  }
}
