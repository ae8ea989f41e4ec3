import { appEnvOf } from './environment';
import { readSecretFile } from './secret-file';
import { Secret } from './secret';
import { describePkcs11Key, parsePkcs11Signer, type Pkcs11SignerConfig } from './pkcs11';

/** A private key as hex (viem's `Hex`, spelt here: viem is the chain adapter's alone). */
type Hex = `0x${string}`;

/** An agent key held by this process (read from a variable or a file). */
export class AgentKey extends Secret<Hex> {}

/** One chain the gateway speaks to. */
export interface ChainConfig {
  /** Numeric EVM chain id, as tokens and wallets name it. */
  chainId: string;
  /** JSON-RPC endpoints, tried in order for reads; writes go to the first that answers. */
  rpcUrls: string[];
  /** Blocks on top of a transaction's before its business outcome is declared (1 = the block itself). */
  confirmations: number;
  /** The agent key that signs every transaction of the gateway on this chain, held by this process; null: read only, or `pkcs11`. */
  agentKey: AgentKey | null;
  /** The agent key in an HSM, reached through PKCS#11 (pkcs11.ts); null: none. */
  pkcs11: Pkcs11SignerConfig | null;
  /** Block explorer base URL (`<explorerUrl>/tx/<hash>`), shown by the console; optional. */
  explorerUrl: string | null;
  /** A transaction not mined after this long is replaced at the same nonce with higher fees. */
  replaceAfterMs: number;
  /** How long the writer's lease on the agent key lasts unrenewed: after a crash, the next writer waits this long. */
  leaseSeconds: number;
  /** The gateway's own anvil (development and tests). */
  embedded: boolean;
}

export type ChainsConfig = Record<string, ChainConfig>;

const DEFAULT_CONFIRMATIONS = 2;
const DEFAULT_REPLACE_AFTER_MS = 60_000;
const DEFAULT_LEASE_SECONDS = 30;

/**
 * CHAINS: a JSON object by chain id,
 * `{"<chainId>": {"rpcUrls": ["https://…"], "confirmations": 12, "agentKeyEnv": "AGENT_KEY_1" | "agentKeyFile": "/run/secrets/agent",
 *   "explorerUrl": "https://etherscan.io", "replaceAfterMs": 60000, "leaseSeconds": 30}}`;
 * or, for a key in an HSM, `"signer": {"kind": "pkcs11", "library": …, "tokenLabel": …, "keyLabel": …, "pinEnv" | "pinFile": …}`
 * in place of agentKeyEnv / agentKeyFile (pkcs11.ts).
 * The key (or the HSM's PIN) is read from the named variable or file, never from CHAINS itself
 * (which is logged by careless shells and process lists). Every mistake is named; the key's value never is.
 */
export function parseChains(raw: string | undefined, env: NodeJS.ProcessEnv, problems: string[]): ChainsConfig | null {
  if (raw === undefined || raw.trim() === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    problems.push('CHAINS must be a JSON object of chain id to {rpcUrls, confirmations, agentKeyEnv | agentKeyFile, explorerUrl}');
    return {};
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    problems.push('CHAINS must be a JSON object of chain id to {rpcUrls, confirmations, agentKeyEnv | agentKeyFile, explorerUrl}');
    return {};
  }
  const out: ChainsConfig = {};
  for (const [id, value] of Object.entries(parsed as Record<string, unknown>)) {
    const at = `CHAINS.${id}`;
    if (!/^[1-9][0-9]{0,17}$/.test(id)) problems.push(`CHAINS key "${id}" must be a numeric chain id`);
    const v = (value ?? {}) as Record<string, unknown>;
    const rpcUrls = Array.isArray(v.rpcUrls) ? v.rpcUrls : typeof v.rpcUrl === 'string' ? [v.rpcUrl] : [];
    if (!rpcUrls.length || !rpcUrls.every((u) => typeof u === 'string' && /^(https?|wss?):\/\/\S+$/.test(u)))
      problems.push(`${at}.rpcUrls must be a non-empty list of http(s) or ws(s) URLs`);
    const confirmations = v.confirmations === undefined ? DEFAULT_CONFIRMATIONS : v.confirmations;
    if (typeof confirmations !== 'number' || !Number.isInteger(confirmations) || confirmations < 1 || confirmations > 1000)
      problems.push(`${at}.confirmations must be an integer from 1 to 1000`);
    const replaceAfterMs = v.replaceAfterMs === undefined ? DEFAULT_REPLACE_AFTER_MS : v.replaceAfterMs;
    if (typeof replaceAfterMs !== 'number' || !Number.isInteger(replaceAfterMs) || replaceAfterMs < 100)
      problems.push(`${at}.replaceAfterMs must be an integer of at least 100`);
    const leaseSeconds = v.leaseSeconds === undefined ? DEFAULT_LEASE_SECONDS : v.leaseSeconds;
    if (typeof leaseSeconds !== 'number' || !Number.isInteger(leaseSeconds) || leaseSeconds < 1 || leaseSeconds > 3600)
      problems.push(`${at}.leaseSeconds must be an integer from 1 to 3600`);
    if (v.explorerUrl !== undefined && (typeof v.explorerUrl !== 'string' || !/^https?:\/\/\S+$/.test(v.explorerUrl)))
      problems.push(`${at}.explorerUrl must be an http(s) URL`);
    if (v.agentKey !== undefined) problems.push(`${at}.agentKey is refused: name a variable (agentKeyEnv) or a file (agentKeyFile) holding the key`);
    const pkcs11 = v.signer === undefined ? null : parsePkcs11Signer(`${at}.signer`, v.signer, env, problems);
    if (v.signer !== undefined && (v.agentKeyEnv !== undefined || v.agentKeyFile !== undefined))
      problems.push(`${at} must name a signer or agentKeyEnv / agentKeyFile, not both`);
    out[id] = {
      chainId: id,
      rpcUrls: rpcUrls as string[],
      confirmations: confirmations as number,
      agentKey: readAgentKey(at, v, env, problems),
      pkcs11,
      explorerUrl: (v.explorerUrl as string | undefined)?.replace(/\/+$/, '') ?? null,
      replaceAfterMs: replaceAfterMs as number,
      leaseSeconds: leaseSeconds as number,
      embedded: false,
    };
  }
  return out;
}

const KEY = /^(0x)?[0-9a-fA-F]{64}$/;

function readAgentKey(at: string, v: Record<string, unknown>, env: NodeJS.ProcessEnv, problems: string[]): AgentKey | null {
  let raw: string | undefined;
  if (v.agentKeyEnv !== undefined && v.agentKeyFile !== undefined) problems.push(`${at} must name agentKeyEnv or agentKeyFile, not both`);
  if (typeof v.agentKeyEnv === 'string') {
    raw = env[v.agentKeyEnv]?.trim();
    if (!raw) problems.push(`${at}.agentKeyEnv names ${v.agentKeyEnv}, which is not set`);
  } else if (typeof v.agentKeyFile === 'string') {
    raw = readSecretFile(`${at}.agentKeyFile`, v.agentKeyFile, appEnvOf(env), problems)?.trim();
  } else if (v.agentKeyEnv !== undefined || v.agentKeyFile !== undefined) {
    problems.push(`${at}.agentKeyEnv / agentKeyFile must be a string`);
  }
  if (raw === undefined || raw === '') return null;
  if (!KEY.test(raw)) {
    problems.push(`${at}: the agent key must be 32 bytes in hex`);
    return null;
  }
  return new AgentKey((raw.startsWith('0x') ? raw : `0x${raw}`) as Hex);
}

/** Anvil's first development account (mnemonic `test test … junk`): public, for the embedded chain only. */
export const ANVIL_DEV_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as Hex;

/** The embedded chain's configuration, once its anvil listens. */
export function embeddedChainConfig(rpcUrl: string): ChainConfig {
  return {
    chainId: '31337',
    rpcUrls: [rpcUrl],
    confirmations: DEFAULT_CONFIRMATIONS,
    agentKey: new AgentKey(ANVIL_DEV_KEY),
    pkcs11: null,
    explorerUrl: null,
    replaceAfterMs: 5_000,
    leaseSeconds: 5,
    embedded: true,
  };
}

/** Whether the chain has an agent key, in this process or in an HSM: whether the gateway writes to it. */
export const hasAgentKey = (c: ChainConfig): boolean => !!(c.agentKey || c.pkcs11);

/** Where the chain's agent key lives, for the start-up lines (never the key or a PIN). */
export const describeAgentKey = (c: ChainConfig): string => (c.agentKey ? 'agent key configured' : c.pkcs11 ? describePkcs11Key(c.pkcs11) : 'read only');
