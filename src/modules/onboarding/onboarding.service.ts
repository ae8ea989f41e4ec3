import { standingRefusal } from '../../access/access';
import { DomainError } from '../../common/errors';
import type { ServiceContext } from '../../access/service-context';
import type { SupplyRegistry } from '../../supply/http-provider';
import { ApiCredential, invalidCredentials } from '../auth';
import type { DealingService } from '../dealing';
import { DistributorHost, type DistributorService, DistributorWallet, hostNotProvisioned, ShareClassGrant } from '../distributor';
import { Investor, investorNotFound } from '../investor';
import type { NavService } from '../nav';
import {
  defaultChainRefusal,
  holdWalletRefusal,
  investorPrerequisiteRefusal,
  placementParties,
  type PlacementParties,
  pricingRefusal,
  providerNotConfigured,
  tradingRefusal,
  walletRequiredBeforeSettlement,
} from '../order';
import { shareClassNotFound, type ShareClassRecord, type ShareClassService } from '../share-class';
import type { Onboarding, OnboardingItem } from './onboarding.types';

/** Investors of a distributor a checklist tries placement for, newest first. */
const INVESTORS_ASKED = 20;

/**
 * The onboarding checklists of the ops console: what a share class or a distributor still lacks
 * before its first order can succeed. Nothing here decides on its own: each item asks the rule
 * placement applies (placement-prerequisites.ts, placementParties, the door's standing rule) and,
 * while missing, shows the message that rule answers an order, so the checklist and the API
 * cannot disagree.
 */
export class OnboardingService {
  constructor(
    private readonly deps: {
      shareClasses: ShareClassService;
      navs: NavService;
      dealing: DealingService;
      distributors: DistributorService;
      supply: SupplyRegistry;
    },
  ) {}

  /** A share class: active, a primary token, a live NAV, granted to a distributor; a calendar and its platform (advisory). */
  async shareClass(ctx: ServiceContext, shareClassId: string): Promise<Onboarding> {
    ctx.access.requireOps();
    const sc = await this.deps.shareClasses.record(ctx, shareClassId);
    if (!sc) throw shareClassNotFound();
    const grants = await ctx.em.count(ShareClassGrant, { shareClass: sc.id });
    const calendar = await this.deps.dealing.calendarOf(ctx, sc.id);
    return checklist([
      ...(await this.tradable(ctx, sc)),
      item('grant', 'Granted to a distributor', grants ? null : shareClassNotFound(), { subject: null }),
      item('calendar', 'A dealing calendar (without one: every weekday in UTC, cut-off at the end of the day)', null, {
        done: calendar !== null,
        blocking: false,
      }),
      item(
        'provider',
        `Supply-side platform ${sc.provider} configured (two-step push)`,
        this.deps.supply.get(sc.provider) ? null : providerNotConfigured(sc.provider),
        { blocking: false },
      ),
    ]);
  }

  /**
   * A distributor: active; a way in (a hostname for surface R or a credential for surface O); a
   * share class granted that can trade; an investor for whom placement finds nothing missing.
   */
  async distributor(ctx: ServiceContext, distributorId: string): Promise<Onboarding> {
    ctx.access.requireOps();
    const d = await this.deps.distributors.get(ctx, distributorId);
    const hosts = await ctx.em.count(DistributorHost, { distributor: d.id });
    const credentials = await ctx.em.count(ApiCredential, { distributor: d.id, revokedAt: null });
    const grants = await this.deps.distributors.grantsOf(ctx.em, d.id);
    const wallets = new Map((await ctx.em.find(DistributorWallet, { distributor: d.id })).map((w) => [w.chainId, w.address]));
    const investors = await ctx.em.find(Investor, { distributor: d.id }, { orderBy: { id: 'desc' }, limit: INVESTORS_ASKED });

    // Each granted share class: its own blocking gaps, then the distributor's wallet for `hold` delivery.
    const perGrant: OnboardingItem[] = [];
    for (const [shareClassId, mode] of grants) {
      const sc = await this.deps.shareClasses.record(ctx, shareClassId);
      if (!sc) continue;
      const refusal =
        (await this.tradable(ctx, sc)).find((i) => !i.done)?.refusal ??
        (sc.primaryChainId ? holdWalletRefusal(mode, wallets.get(sc.primaryChainId) ?? null, sc.primaryChainId) : null);
      perGrant.push(item(`grant:${sc.id}`, `${sc.meta.name} (${sc.id}, ${mode}) can trade`, refusal, { subject: sc.id }));
    }
    const someGrantTrades = perGrant.some((i) => i.done);

    // Placement itself, for each investor (newest first) and granted share class: the parties it
    // reads, then what each rule asks of them; it stops once every rule has a pair that passes.
    // While no pair passes a rule, the first refusal met is shown.
    const wallet = (p: PlacementParties) => (p.investorWallet ? null : walletRequiredBeforeSettlement());
    const rules = [wallet, investorPrerequisiteRefusal];
    const refusals = new Map<(p: PlacementParties) => DomainError | null, DomainError | null>();
    pairs: for (const investor of investors) {
      for (const shareClassId of grants.keys()) {
        const tried = await this.parties(ctx, { distributorId: d.id, investorId: investor.id, shareClassId });
        for (const rule of rules) {
          if (refusals.get(rule) === null) continue;
          const refusal = tried.parties ? rule(tried.parties) : tried.refusal;
          if (refusal === null || !refusals.has(rule)) refusals.set(rule, refusal);
        }
        if (rules.every((rule) => refusals.get(rule) === null)) break pairs;
      }
    }
    // No pair to try: placement would stop at the investor, or else at the share class.
    const nothingToTry = investors.length ? shareClassNotFound() : investorNotFound();
    const firstRefusal = (rule: (p: PlacementParties) => DomainError | null) => (refusals.has(rule) ? refusals.get(rule)! : nothingToTry);

    const items = [
      item('standing', 'Distributor is active', standingRefusal(d.status), { subject: null }),
      item('host', 'A hostname for surface R', hosts ? null : hostNotProvisioned('<its hostname>'), { blocking: !credentials }),
      item('credential', 'An API credential for surface O', credentials ? null : invalidCredentials(), { blocking: !hosts }),
      item('grant', 'A share class granted', grants.size ? null : shareClassNotFound()),
      ...perGrant.map((i) => ({ ...i, blocking: !someGrantTrades })),
      item('investor', 'An investor registered', investors.length ? null : investorNotFound()),
      item('investorWallet', 'An investor with a wallet in use on a granted share class’s default chain', firstRefusal(wallet)),
      item(
        'investorTwoStep',
        'An investor granted a share class, with a wallet on its default chain (two-step subscriptions)',
        firstRefusal(investorPrerequisiteRefusal),
        { blocking: false },
      ),
    ];
    return checklist(items);
  }

  /** What every order of a share class needs of it: active, a primary token, a live NAV. */
  private async tradable(ctx: ServiceContext, sc: ShareClassRecord): Promise<OnboardingItem[]> {
    const nav = await this.deps.navs.latestRecord(ctx, sc.id);
    return [
      item('status', 'Share class is active', tradingRefusal(sc), { subject: sc.id }),
      item('primaryToken', 'A primary token (its chain is the default chain)', defaultChainRefusal(sc), { subject: sc.id }),
      item('nav', 'A live NAV', pricingRefusal(nav), { subject: sc.id }),
    ];
  }

  /** The parties placement reads for these ids, or the refusal it answers. */
  private async parties(ctx: ServiceContext, ids: { distributorId: string; investorId: string; shareClassId: string }) {
    try {
      return { parties: await placementParties(ctx, this.deps, ids), refusal: null };
    } catch (err) {
      if (err instanceof DomainError) return { parties: null, refusal: err };
      throw err;
    }
  }
}

/** An item; done when its rule answers no refusal (or as `done` says, for what no order is refused for). */
function item(
  key: string,
  label: string,
  refusal: DomainError | string | null,
  opts: { done?: boolean; blocking?: boolean; subject?: string | null } = {},
): OnboardingItem {
  return {
    key,
    label,
    done: opts.done ?? refusal === null,
    blocking: opts.blocking ?? true,
    refusal: refusal === null ? null : typeof refusal === 'string' ? refusal : refusal.message,
    subject: opts.subject ?? null,
  };
}

function checklist(items: OnboardingItem[]): Onboarding {
  return { ready: items.every((i) => i.done || !i.blocking), items };
}
