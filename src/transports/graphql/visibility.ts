import {
  defaultFieldResolver,
  getNamedType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import { notFound, unauthenticated } from '../../common/errors';
import { Investor } from '../../modules/investor/investor.entity';
import { Order } from '../../modules/order/order.entity';
import { Webhook } from '../../modules/webhook/webhook.entity';
import type { GatewayContext } from '../../access/graphql-context';
import { ReadAlways } from '../../persistence/field-reads';

/**
 * The tenant rule of every object type of the schema, applied to every field that returns one,
 * at every depth, on every door (HTTP, graphql-ws, the REST facade's in-process execution).
 * Services answer the documented errors for what a caller names; this guard makes sure nothing a
 * caller did not name reaches it either (`shareClass { grants { distributor { hosts } } }`).
 *
 * A type without a rule stops the gateway at start (`guardSchema`): a new type is private until
 * someone decides who may see it.
 */
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-argument -- each row of the table reads a record of its own GraphQL type, which only the type name keys; the walk over every field and route (test/security) proves the rows */
export type Visibility =
  /** A record of one distributor's book: `owner` gives that distributor's id (`DT…`). */
  | { owner: (record: any, ctx: GatewayContext) => string | null | undefined | Promise<string | null | undefined> }
  /** Visible with its share class: ops, or a distributor the share class is granted to. */
  | { shareClass: (record: any) => string | null | undefined }
  /** Operations' data only. */
  | 'ops'
  /** A part of a checked parent (its embedded details, its history); never returned by a root field. */
  | 'part'
  /** Holds no tenant data of its own (pages, acknowledgements, health); its object fields are checked in turn. */
  | 'open';

const ref = (v: unknown): string | null => (typeof v === 'string' ? v : ((v as { id?: string } | null)?.id ?? null));
const investorOwner = async (investorId: string | null, ctx: GatewayContext) =>
  investorId ? ref((await ctx.loaders.byId(Investor).load(investorId))?.distributor) : null;

export const VISIBILITY: Record<string, Visibility> = {
  Query: 'open',
  Mutation: 'open',
  Subscription: 'open',
  Health: 'open',
  TokenPairResult: 'open',
  CancelOrderResult: 'open',
  WebhookCheck: 'open',
  WebhookTestResult: 'open',
  DeliveriesReset: 'open',
  DistributorPage: 'open',
  FundPage: 'open',
  InvestorPage: 'open',
  IssuerPage: 'open',
  OrderPage: 'open',
  ShareClassPage: 'open',
  TokenPage: 'open',
  EventFeedPage: 'open',

  Issuer: 'ops',
  Fund: 'ops',
  ApiCredentialView: 'ops',
  DealingPreview: 'ops',
  Onboarding: 'ops',
  OnboardingItem: 'part',
  DealingDatesView: 'part',
  IssuedApiCredential: 'ops',
  IssuedOpsToken: 'ops',
  OpsPrincipal: 'ops',
  OpsDuty: 'ops',
  OpsDutyStep: 'ops',
  /** Four-eyes requests and the audit log are operations' (the audit log's readers: src/access/ops-roles.ts). */
  ApprovalRequest: 'ops',
  /** What a request binds (token, wallets, quantities): parts of the request. */
  ApprovalEffect: 'part',
  ForcedTransferEffect: 'part',
  WalletRecoveryEffect: 'part',
  RecoveredToken: 'part',
  HoldingAdjustmentEffect: 'part',
  NavCorrectionPreview: 'ops',
  NavRepricing: 'part',
  NavCompensation: 'part',
  AuditLogEntry: 'ops',
  /** The caller itself. */
  Me: 'open',
  ChainTransactionFinal: 'ops',
  ApprovalChange: 'ops',

  Distributor: { owner: (d) => d.id },
  DistributorHost: { owner: (h) => ref(h.distributor) },
  DistributorWallet: { owner: (w) => ref(w.distributor) },
  ShareClassGrant: { owner: (g) => ref(g.distributor) },
  Investor: { owner: (i) => ref(i.distributor) },
  InvestorWallet: { owner: (w, ctx) => investorOwner(ref(w.investor), ctx) },
  HoldingView: { owner: (h, ctx) => investorOwner(h.investorId, ctx) },
  Order: { owner: (o) => ref(o.distributor) },
  OrderUpdate: { owner: (u) => u.distributorId },
  Webhook: { owner: (w) => ref(w.distributor) },
  WebhookWithSecret: { owner: (w) => ref(w.webhook?.distributor) },
  WebhookDelivery: { owner: async (d, ctx) => ref((await ctx.loaders.byId(Webhook).load(ref(d.webhook) ?? ''))?.distributor) },
  WebhookDeliveryOutcome: { owner: (m) => m.distributorId },
  FeedEvent: { owner: (e) => e.distributorId },

  ShareClass: { shareClass: (sc) => sc.id },
  Token: { shareClass: (t) => ref(t.shareClass) },
  Nav: { shareClass: (n) => ref(n.shareClass) },
  DealingCalendar: { shareClass: (c) => ref(c.shareClass) },
  NavPublication: { shareClass: (p) => p.shareClassId },

  ShareClassMeta: 'part',
  ShareClassDetails: 'part',
  ShareClassMetrics: 'part',
  ShareClassOverview: 'part',
  SubRedemption: 'part',
  BankDetails: 'part',
  OrderStatusEntry: 'part',
  /** A settlement transaction is seen with its order (its hash is public on chain anyway); the gateway's other transactions are operations'. */
  ChainTransaction: { owner: async (tx, ctx) => (tx.orderId ? ref((await ctx.loaders.byId(Order).load(tx.orderId))?.distributor) : null) },
  /** Dealing-date settlement and what the chain follower saw are operations' work. */
  DealingSettlementPreview: 'ops',
  DealingSettlement: 'ops',
  DealingSettlementRow: 'part',
  DealingSettlementFailure: 'part',
  ChainMovement: 'ops',
  /** The chains the gateway is configured for, and whether it writes to them: operations' setup. */
  ChainInfo: 'ops',
  Reconciliation: 'ops',
  ReconciliationDifference: 'part',
  ReconciliationHolder: 'part',
  ReconciliationWallet: 'part',
  /** The desk's home screen: the whole book at once. */
  Book: 'ops',
  BookAumPoint: 'part',
  BookDealingFlow: 'part',
  BookWaitingOrders: 'part',
  BookCutOff: 'part',
  BookChainStatus: 'part',
  /** The register at a date names every distributor's investors: operations' only. */
  RegisterAtDate: 'ops',
  RegisterHolder: 'part',
  RegisterWallet: 'part',
  /** The current register and an investor's positions name every distributor's investors: operations' only. */
  Positions: 'ops',
  Position: 'part',
  InvestorPosition: 'ops',
  /** Attempt details (endpoint errors, latencies) are for operations. */
  WebhookAttempt: 'ops',
  /** Income (src/modules/distribution): a class's policy and distributions are seen with the class; an entitlement by its investor's distributor. */
  DistributionPolicy: { shareClass: (p) => p.shareClassId },
  Distribution: { shareClass: (d) => d.shareClassId },
  DistributionEntitlement: { owner: (e) => e.distributorId },
  IncomeEntry: { owner: (e) => e.distributorId },
  DistributionPreview: 'ops',
  DistributionPreviewHolder: 'part',
};
/* eslint-enable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-argument */

// A page that reads only the selected columns of its orders still reads the owner this guard checks.
ReadAlways(Order, 'distributor');

/** Root fields nobody may call without a principal: every one but these. */
export const PUBLIC_ROOT_FIELDS: ReadonlySet<string> = new Set(['Query.health', 'Mutation.issueAccessToken', 'Mutation.refreshAccessToken']);

const ROOTS = new Set(['Query', 'Mutation', 'Subscription']);

/**
 * Whether the caller may see one record of a type with this rule: an answer at once when the
 * rule reads the record itself (a page of 100 orders checks 100 owners without a promise each),
 * a promise when it has to load something (an investor, a grant list).
 */
function visible(rule: Visibility, record: unknown, ctx: GatewayContext): boolean | Promise<boolean> {
  if (record === null || record === undefined) return true;
  if (rule === 'open' || rule === 'part') return true;
  if (ctx.access.isOps) return true;
  if (rule === 'ops') return false;
  if ('owner' in rule) {
    const owner = rule.owner(record, ctx);
    return owner instanceof Promise ? owner.then((id) => ctx.access.sees(id)) : ctx.access.sees(owner);
  }
  const shareClassId = rule.shareClass(record);
  return !!shareClassId && ctx.access.seesShareClass(ctx.em, shareClassId);
}

/**
 * What a field answers once its records are checked: a list keeps what the caller may see; a
 * single record it may not see answers null where the field allows it, else `<Type> not found`
 * (exactly as for a missing record).
 */
async function checked(type: GraphQLOutputType, rule: Visibility, value: unknown, ctx: GatewayContext): Promise<unknown> {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) {
    if (!Array.isArray(value)) return value;
    const answers = value.map((v) => visible(rule, v, ctx));
    const keep = answers.some((a) => a instanceof Promise) ? await Promise.all(answers.map((a) => Promise.resolve(a))) : (answers as boolean[]);
    return keep.every(Boolean) ? value : value.filter((_, i) => keep[i]);
  }
  if (await visible(rule, value, ctx)) return value;
  if (isNonNullType(type)) throw notFound(`${getNamedType(type).name} not found`);
  return null;
}

function guardField(parent: string, field: GraphQLField<unknown, GatewayContext>, rule: Visibility | null): void {
  const key = `${parent}.${field.name}`;
  const root = ROOTS.has(parent);
  const isPublic = PUBLIC_ROOT_FIELDS.has(key);
  const resolve: GraphQLFieldResolver<unknown, GatewayContext> = field.resolve ?? defaultFieldResolver;
  const needsCheck = rule !== null && rule !== 'open' && rule !== 'part';
  if (!root && !needsCheck) return;
  field.resolve = (source, args, ctx, info) => {
    if (root && !isPublic && ctx.access.isAnonymous) throw unauthenticated('authentication required');
    const out = resolve(source, args, ctx, info);
    // Ops see every book: nothing to check, nothing awaited.
    if (!needsCheck || ctx.access.isOps) return out;
    return Promise.resolve(out).then((value) => checked(field.type, rule, value, ctx));
  };
  if (root && field.subscribe) {
    const subscribe = field.subscribe;
    field.subscribe = (source, args, ctx, info) => {
      if (!isPublic && ctx.access.isAnonymous) throw unauthenticated('authentication required');
      return subscribe(source, args, ctx, info);
    };
  }
}

/**
 * Applies the rules to the built schema, once per process. Throws when an object type has no
 * rule, or when a root field returns a `part` (which is only safe under a checked parent).
 */
export function guardSchema(schema: GraphQLSchema): GraphQLSchema {
  const problems: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    if (!VISIBILITY[type.name]) problems.push(`type ${type.name} has no visibility rule (src/transports/graphql/visibility.ts)`);
    for (const field of Object.values(type.getFields())) {
      const named = getNamedType(field.type);
      const rule = isObjectType(named) ? (VISIBILITY[named.name] ?? 'ops') : null;
      if (ROOTS.has(type.name) && rule === 'part') problems.push(`root field ${type.name}.${field.name} returns ${named.name}, a part of another record`);
      guardField(type.name, field as GraphQLField<unknown, GatewayContext>, rule);
    }
  }
  for (const key of PUBLIC_ROOT_FIELDS) {
    const [typeName, fieldName] = key.split('.');
    const type = schema.getType(typeName);
    if (!isObjectType(type) || !type.getFields()[fieldName]) problems.push(`public root field ${key} does not exist`);
  }
  if (problems.length) throw new Error(`GraphQL visibility rules are incomplete:\n- ${problems.join('\n- ')}`);
  return schema;
}
