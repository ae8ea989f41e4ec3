import type { FilterQuery, RequiredEntityData } from '@mikro-orm/core';
import type { Clock } from '../../common/clock';
import { DomainError } from '../../common/errors';
import type { ReadCache } from '../../persistence/read-cache';
import { readRecord } from '../../persistence/read-record';
import { appendEvent } from '../../events/event-log';
import { documentedId, ID_PREFIXES, nextId } from '../../common/ids';
import type { ServiceContext } from '../../access/service-context';
import { currencyCode, optional, readInput, required, type Problems } from '../../common/validate';
import { paginate } from '../../persistence/pagination';
import { Fund, fundNotFound } from '../fund';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ShareClass } from './share-class.entity';
import { shareClassNotFound } from './share-class.errors';
import * as rules from './share-class.rules';
import type { NavAssetClass } from './nav-tolerance';
import type { BankDetails, ShareClassDetails, ShareClassMeta, ShareClassMetrics, ShareClassOverview, SubRedemption } from './share-class.parts';

/** The provisioned fields of a share class; on update, absent ones stay as they are. */
export interface ShareClassFields {
  fundId?: string | null;
  currency?: string | null;
  provider?: string | null;
  status?: string | null;
  feesSubBps?: number | null;
  feesRedBps?: number | null;
  feesMgmtBps?: number | null;
  feesPerfBps?: number | null;
  feesWatermarkBps?: number | null;
  navAssetClass?: NavAssetClass | null;
  navToleranceBps?: number | null;
  meta?: ShareClassMeta | null;
  details?: ShareClassDetails | null;
  metrics?: ShareClassMetrics | null;
  overview?: ShareClassOverview | null;
  subRedemption?: SubRedemption | null;
  bank?: BankDetails | null;
  dealingWeekdays?: number[] | null;
}

/** A share class id as sent: `shareClassId is required`, then `invalid shareClassId format` (`SC` + 6 digits). */
function shareClassIdOf(raw: unknown): string {
  return documentedId(raw, 'shareClassId', ID_PREFIXES.shareClassId);
}

const PARTS = ['meta', 'details', 'metrics', 'overview', 'subRedemption', 'bank'] as const;

/**
 * What a share class's record needs of its primary token (its chain, its decimals). The token
 * module, which comes after share-class, provides it; the composition root wires it (src/services.ts).
 */
export interface PrimaryTokens {
  primaryToken(em: EntityManager, shareClassId: string): Promise<{ chainId: string; decimals: number } | null>;
}

/**
 * Share classes as a principal sees them: ops see all; a distributor sees those granted to it,
 * and an ungranted one answers exactly like a missing one.
 */
export class ShareClassService {
  constructor(
    private readonly clock: Clock,
    private readonly cache: ReadCache,
    private readonly tokens: PrimaryTokens,
  ) {}

  /** Every share class visible to the caller, ordered by id. */
  async listVisible(ctx: ServiceContext): Promise<ShareClass[]> {
    const visible = await ctx.access.visibleShareClasses(ctx.em);
    if (visible === 'all') return ctx.em.find(ShareClass, {}, { orderBy: { id: 'asc' } });
    if (!visible.size) return [];
    return ctx.em.find(ShareClass, { id: { $in: [...visible.keys()] } }, { orderBy: { id: 'asc' } });
  }

  /** One visible share class; `invalid shareClassId format` or `shareClassId not found` otherwise. */
  async getVisible(ctx: ServiceContext, shareClassId: unknown): Promise<ShareClass> {
    const id = shareClassIdOf(shareClassId);
    if (!(await ctx.access.seesShareClass(ctx.em, id))) throw shareClassNotFound();
    const found = await ctx.em.findOne(ShareClass, { id });
    if (!found) throw shareClassNotFound();
    return found;
  }

  /**
   * One visible share class as a read-only record (its primary token's chain included), for
   * reads that change nothing: `getVisible`'s rules and errors, served from the in-process cache
   * (share classes and a distributor's grants; dropped by their events) — no SQL once warm.
   */
  async readVisible(ctx: ServiceContext, shareClassId: unknown): Promise<ShareClassRecord> {
    const id = shareClassIdOf(shareClassId);
    if (!(await ctx.access.seesShareClass(ctx.em, id))) throw shareClassNotFound();
    const found = await this.record(ctx, id);
    if (!found) throw shareClassNotFound();
    return found;
  }

  /** A share class as a cached read-only record, whoever asks (callers apply the visibility rules); undefined when missing. */
  async record(ctx: Pick<ServiceContext, 'em'>, id: string): Promise<ShareClassRecord | undefined> {
    return (await this.cache.shareClasses.get(id, () => this.loadRecord(ctx, id))) as ShareClassRecord | undefined;
  }

  private async loadRecord(ctx: Pick<ServiceContext, 'em'>, id: string): Promise<ShareClassRecord | undefined> {
    const sc = await ctx.em.findOne(ShareClass, { id });
    if (!sc) return undefined;
    const token = await this.tokens.primaryToken(ctx.em, id);
    return shareClassRecord(sc, token ? { chainId: token.chainId, decimals: token.decimals } : null);
  }

  /** Ops: a page of share classes, newest first, by fund and status. */
  async list(
    ctx: ServiceContext,
    filter: { fundId?: string | null; status?: string | null } = {},
    page: { first?: number | null; after?: string | null } = {},
  ) {
    ctx.access.requireOps();
    const where: FilterQuery<ShareClass> = {};
    const fundId = optional(filter.fundId, 'fundId');
    const status = optional(filter.status, 'status');
    if (fundId) where.fund = fundId;
    if (status) where.status = status;
    return paginate(ctx.em, ShareClass, where, page);
  }

  /** Ops: a new share class with every documented field. Its primary token comes with `createToken`. */
  async create(ctx: ServiceContext, input: ShareClassFields): Promise<ShareClass> {
    ctx.access.requireOps();
    const { fundId, fields } = readInput((p) => ({ fundId: p.take('fundId', () => required(input.fundId, 'fundId')), fields: this.validated(input, true, p) }));
    const fund = await ctx.em.findOne(Fund, { id: fundId });
    if (!fund) throw fundNotFound(fundId);
    // `validated(…, true)` refuses a create without its required fields; its return type cannot say so.
    const data = { id: await nextId(ctx.em, 'SC'), fund, status: 'active', ...fields } as RequiredEntityData<ShareClass>;
    const sc = ctx.em.create(ShareClass, data);
    this.changed(ctx, sc.id, 'share_class.created');
    await ctx.em.flush();
    return sc;
  }

  /** Ops: change a share class; only the given fields change, a given sub-object replaces the stored one. */
  async update(ctx: ServiceContext, id: string, input: Omit<ShareClassFields, 'fundId'>): Promise<ShareClass> {
    ctx.access.requireOps();
    const sc = await this.getVisible(ctx, id);
    const fields = readInput((p) => this.validated(input, false, p));
    ctx.em.assign(sc, fields);
    this.changed(ctx, sc.id, 'share_class.updated', { fields: Object.keys(fields) });
    await ctx.em.flush();
    return sc;
  }

  /** The event every change of a share class appends in its unit of work (it drops cached copies). */
  private changed(ctx: ServiceContext, shareClassId: string, type: string, payload: Record<string, unknown> = {}): void {
    appendEvent(ctx.em, { type, aggregateType: 'share_class', aggregateId: shareClassId, payload: { shareClassId, ...payload }, occurredAt: this.clock.now() });
  }

  /** The checked, normalised fields, every wrong one refused at once; on create every documented field is required. */
  private validated(input: ShareClassFields, creating: boolean, p: Problems): Partial<ShareClass> {
    const out: Record<string, unknown> = {};
    const given = (v: unknown) => creating || (v !== undefined && v !== null);
    if (given(input.currency)) out.currency = p.take('currency', () => currencyCode(input.currency, 'currency'));
    if (given(input.provider)) out.provider = p.take('provider', () => rules.provider(input.provider));
    if (input.status !== undefined && input.status !== null) out.status = p.take('status', () => rules.status(input.status));
    for (const f of rules.FEE_FIELDS) if (given(input[f])) out[f] = p.take(f, () => rules.fee(input[f], f));
    // Optional on create too: without them a class has its asset class's tolerance, `other` by default.
    if (input.navAssetClass != null) out.navAssetClass = p.take('navAssetClass', () => rules.navAssetClass(input.navAssetClass));
    if (input.navToleranceBps != null) out.navToleranceOverrideBps = p.take('navToleranceBps', () => rules.fee(input.navToleranceBps, 'navToleranceBps'));
    // Optional on create too: a class deals Monday to Friday unless its dealing week is given.
    if (input.dealingWeekdays != null) out.dealingWeekdays = p.take('dealingWeekdays', () => rules.dealingWeekdays(input.dealingWeekdays));
    for (const part of PARTS) {
      const value = input[part];
      if (!given(value)) continue;
      if (value === undefined || value === null) p.take(part, () => badRequestPart(part));
      else out[part] = (rules[part] as (v: unknown, p: Problems) => unknown)(value, p);
    }
    return out;
  }
}

/**
 * A share class as read-only data: the entity's fields (sub-objects copied), its fund as a
 * reference and its primary token's chain. Frozen: a cached record is shared by requests.
 */
export type ShareClassRecord = Readonly<Omit<ShareClass, 'fund'>> & {
  readonly fund: { readonly id: string };
  /** The primary token's chain (`defaultChainId`), null without one. */
  readonly primaryChainId: string | null;
  /** The primary token's decimals (subscription pricing), null without one. */
  readonly primaryTokenDecimals: number | null;
};

function shareClassRecord(sc: ShareClass, primary: { chainId: string; decimals: number } | null): ShareClassRecord {
  const copy = <T>(v: T): T => deepFreeze(structuredClone({ ...v }));
  return readRecord(ShareClass, {
    id: sc.id,
    fund: Object.freeze({ id: sc.fund.id }),
    currency: sc.currency,
    provider: sc.provider,
    status: sc.status,
    feesSubBps: sc.feesSubBps,
    feesRedBps: sc.feesRedBps,
    feesMgmtBps: sc.feesMgmtBps,
    feesPerfBps: sc.feesPerfBps,
    feesWatermarkBps: sc.feesWatermarkBps,
    navAssetClass: sc.navAssetClass,
    navToleranceOverrideBps: sc.navToleranceOverrideBps,
    meta: copy(sc.meta),
    details: copy(sc.details),
    metrics: copy(sc.metrics),
    overview: copy(sc.overview),
    subRedemption: copy(sc.subRedemption),
    bank: copy(sc.bank),
    dealingWeekdays: Object.freeze([...sc.dealingWeekdays]),
    createdAt: sc.createdAt,
    updatedAt: sc.updatedAt,
    createdBy: sc.createdBy,
    updatedBy: sc.updatedBy,
    primaryChainId: primary?.chainId ?? null,
    primaryTokenDecimals: primary?.decimals ?? null,
  }) as unknown as ShareClassRecord;
}

function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object' && !(v instanceof Date)) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

const badRequestPart = (part: string) => {
  throw new DomainError('BAD_REQUEST', `${part} is required`);
};
