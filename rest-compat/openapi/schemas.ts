/*
 * JSON Schemas (2020-12, as OpenAPI 3.1 reads them) of the records the route rows return and take.
 * Records allow additional properties: the description lets fields be added (clients ignore
 * unknown fields). Fields the gateway adds beyond the description carry `x-additive: true`.
 */

import { MODULE_PARTS } from '../../src/modules/manifests';

export type JsonSchema = Record<string, unknown>;

export const str = (description?: string): JsonSchema => ({ type: 'string', ...(description ? { description } : {}) });
export const num = (description?: string): JsonSchema => ({ type: 'number', ...(description ? { description } : {}) });
export const int = (description?: string): JsonSchema => ({ type: 'integer', ...(description ? { description } : {}) });
export const bool = (description?: string): JsonSchema => ({ type: 'boolean', ...(description ? { description } : {}) });
export const nullable = (s: JsonSchema): JsonSchema => ({ ...s, type: [s.type as string, 'null'] });
export const arrayOf = (items: JsonSchema, description?: string): JsonSchema => ({ type: 'array', items, ...(description ? { description } : {}) });
export const additive = (s: JsonSchema): JsonSchema => ({
  ...s,
  'x-additive': true,
  description: `${typeof s.description === 'string' && s.description ? `${s.description}. ` : ''}Additive (beyond the description).`,
});
export const epochMs = (description = 'Epoch milliseconds, UTC'): JsonSchema => int(description);
/** A webhook event type: every module's family (src/access/webhook-event-family.ts). */
export const eventType: JsonSchema = { enum: [...MODULE_PARTS.webhookEvents.types] };

export const decimal = (description = 'Decimal string'): JsonSchema => ({ type: 'string', pattern: '^-?\\d+(\\.\\d+)?$', description });
export const id = (prefix: string): JsonSchema => ({ type: 'string', pattern: `^${prefix}\\d{6}$`, description: `${prefix}######` });

/** An object whose listed fields are all required unless named in `optional`; others may be added. */
export function obj(properties: Record<string, JsonSchema>, optional: string[] = []): JsonSchema {
  return { type: 'object', properties, required: Object.keys(properties).filter((k) => !optional.includes(k)) };
}

export const shareClass = obj({
  shareClassId: additive(id('SC')),
  fundId: id('FN'),
  currency: str('ISO denomination currency'),
  provider: str('Supply-side platform processing the orders'),
  status: str('`active` for active share classes'),
  feesSubBps: num(),
  feesRedBps: num(),
  feesMgmtBps: num(),
  feesPerfBps: num(),
  feesWatermarkBps: num(),
  defaultChainId: additive(nullable(str('Chain of the primary token'))),
  meta: obj({ name: str(), manager: str() }),
  details: obj({ isin: str(), jurisdiction: str(), minimumInvestment_fiat: num() }),
  metrics: obj({ apy_bps: num(), tvl_fiat: decimal(), change7D: decimal(), currency: str(), maturity_days: num('-1 = open-ended') }),
  overview: obj({ assetClass: str(), description: str(), riskLevel: num() }),
  subRedemption: obj({ subFreq: num(), redFreq: num(), cutOffTime_days: num(), lockup: num(), eligibleInvestors: str(), distributionPolicy: str() }),
  bank: obj({ accountHolderName: str(), accountNumber: str(), accountType: str(), bankName: str(), swiftCode: str(), currency: str() }),
});

export const listOf = (item: JsonSchema, extra: Record<string, JsonSchema> = {}): JsonSchema => obj({ items: arrayOf(item), count: num(), ...extra });

export const nav = obj(
  {
    entryId: { type: 'string', pattern: '^\\d{14}$', description: 'YYYYMMDDHHMMSS of publication' },
    shareClassId: id('SC'),
    close: decimal('Closing price, the canonical NAV'),
    open: decimal(),
    high: decimal(),
    low: decimal(),
    currency: str(),
    volume: num(),
    publishedAt: epochMs(),
    createdAt: epochMs(),
    createdBy: str(),
  },
  ['open', 'high', 'low', 'volume'],
);

export const investor = obj(
  {
    investorId: id('IN'),
    distributorId: id('DT'),
    externalInvestorId: nullable(str()),
    email: nullable(str()),
    countryCode: nullable(str()),
    status: str('`active` at registration'),
    grantedSC: arrayOf(id('SC')),
    createdAt: epochMs(),
    createdBy: str(),
    updatedAt: epochMs(),
    updatedBy: str(),
  },
  ['email', 'countryCode'],
);

export const user = obj({
  userId: id('US'),
  distributorId: id('PT'),
  uniqueId: nullable(str("Caller's own reference")),
  email: nullable(str()),
  name: nullable(str()),
  status: str(),
  createdAt: epochMs(),
  createdBy: str(),
  updatedAt: epochMs(),
  updatedBy: str(),
});

const statusHistory: JsonSchema = {
  type: 'object',
  description: 'Map keyed by epoch-ms timestamp, oldest first',
  additionalProperties: obj({ status: str(), by: str(), note: str() }, ['note']),
};

const supplyRefs: JsonSchema = {
  type: 'object',
  description: 'Key `<provider>`: `orderReference`, `submittedAt` (epoch ms), `raw` (`request`, `response`)',
  additionalProperties: obj({ orderReference: str(), submittedAt: epochMs(), raw: { type: 'object' } }),
};

const money = nullable(num());

/** An order's dealing dates, fixed at placement (additive): the same three fields on both flows and in the webhooks. */
const dealingDates = () => ({
  dealingDate: additive(nullable(str('`YYYY-MM-DD` in the share class dealing zone: the NAV the order deals at'))),
  cutOffAt: additive(nullable(epochMs("Epoch ms of the dealing date's cut-off"))),
  expectedSettlementDate: additive(nullable(str('`YYYY-MM-DD`: the dealing date plus the share class settlement lag'))),
});

export const twoStepOrder = obj(
  {
    orderId: id('OR'),
    orderType: { const: 'SUBSCRIPTION' },
    status: str('created, submitted, cancelled, then as the platform reports'),
    distributorId: id('DT'),
    investorId: id('IN'),
    shareClassId: id('SC'),
    amountSubscription: money,
    amountFeesTotal: money,
    amountPayable: money,
    amountTokensEstimated: decimal('Estimate at the NAV of creation; `-1` when unpriced'),
    feesSubBps: nullable(num()),
    currency: nullable(str()),
    deliveryMode: nullable(str('passthrough or hold')),
    deliveryWallet: nullable(str()),
    nav: decimal('NAV used for pricing; `-1` when unpriced'),
    navPublishedAt: nullable(epochMs()),
    externalRef: nullable(str()),
    ...dealingDates(),
    createdAt: epochMs(),
    createdBy: str(),
    updatedAt: epochMs(),
    updatedBy: str(),
    statusHistory,
    supplyRefs,
  },
  ['supplyRefs'],
);

export const twoStepListItem = obj({
  orderId: id('OR'),
  orderType: str(),
  status: str(),
  investorId: id('IN'),
  shareClassId: id('SC'),
  amountSubscription: money,
  amountPayable: money,
  createdAt: epochMs(),
});

export const pushResult = obj({ orderId: id('OR'), status: str(), updatedAt: epochMs(), updatedBy: str(), supplyRefs, statusHistory });
export const twoStepCancelResult = obj({ orderId: id('OR'), status: { const: 'cancelled' }, updatedAt: epochMs(), statusHistory });

/** The one-step order; surface O names the investor `userId` and the distributor `PT######`. */
export function oneStepOrder(surface: 'R' | 'O', read: boolean): JsonSchema {
  const parties: Record<string, JsonSchema> =
    surface === 'O' ? { userId: id('US'), distributorId: id('PT') } : { investorId: id('IN'), distributorId: id('DT') };
  const settlement = additive(
    obj(
      {
        nav: nullable(decimal()),
        tokens: nullable(decimal()),
        amount: nullable(decimal('Subscription: the amount invested. Redemption: the proceeds, tokens × NAV less `fees`')),
        fees: nullable(decimal('Redemptions: tokens × NAV × feesRedBps / 10000, kept from the proceeds')),
        currency: nullable(str()),
        walletAddress: nullable(str()),
        transferHash: nullable(str()),
        failureReason: nullable(str()),
      },
      ['fees'],
    ),
  );
  const schema = obj(
    {
      orderId: { type: 'string', pattern: '^ord_', description: '`ord_<id>`' },
      status: str('pending, accepted, rejected, settled, failed, cancelled'),
      type: { enum: ['subscribe', 'redeem'] },
      shareClassId: id('SC'),
      ...parties,
      amount: num('Subscriptions'),
      currency: nullable(str('Subscriptions')),
      tokenCount: num('Redemptions'),
      feesSubBps: additive(nullable(num("Subscriptions: the share class's subscription fee in bps, copied at placement"))),
      amountFeesTotal: additive(nullable(num('Subscriptions: amount × feesSubBps / 10000, unrounded, on top of the amount'))),
      amountPayable: additive(nullable(num('Subscriptions: amount + amountFeesTotal'))),
      feesRedBps: additive(nullable(num("Redemptions: the share class's redemption fee in bps, copied at placement"))),
      createdAt: epochMs(),
      ...dealingDates(),
      updatedAt: epochMs(),
      chainId: additive(str()),
      walletAddress: additive(str()),
      settlement,
    },
    ['amount', 'currency', 'tokenCount', 'feesSubBps', 'amountFeesTotal', 'amountPayable', 'feesRedBps', 'updatedAt', 'chainId', 'walletAddress', 'settlement'],
  );
  if (read) (schema.required as string[]).push('updatedAt');
  return schema;
}

export const successMessage = obj({ success: bool(), message: str() });

export const webhook = obj({ id: { type: 'string', pattern: '^wh_' }, event_type: str(), endpoint_url: str(), createdAt: epochMs(), createdBy: str() });
export const webhookWithSecret = {
  ...webhook,
  properties: { ...(webhook.properties as object), secret: additive(str('`whsec_…`, shown once: verifies the signatures')) },
  required: [...(webhook.required as string[]), 'secret'],
};

export const holding = obj({
  userId: id('US'),
  shareClassId: id('SC'),
  tokenBalance: decimal(),
  unlockedBalance: additive(decimal("Tokens past the share class's lock-up, which a redemption may use less those promised to open redemptions")),
  pendingIn: additive(
    decimal(
      'Tokens expected from accepted subscriptions not yet settled, at the tokens each was priced at on acceptance (an order not yet priced counts for none)',
    ),
  ),
  pendingOut: additive(decimal('Tokens promised to open (pending or accepted) redemptions')),
  walletAddress: nullable(str()),
  chainId: nullable(str()),
  tokenName: nullable(str()),
  symbol: nullable(str()),
  decimals: nullable(int()),
  tokenAddress: nullable(str()),
});

export const tokenPair = obj({
  accessToken: str('HS256 JWT, 15 minutes'),
  refreshToken: str('Works once'),
  tokenType: { const: 'Bearer' },
  expiresIn: { const: 900 },
});

export const health = obj({ status: { const: 'ok' }, timestamp: { type: 'string', description: 'ISO-8601' }, env: str() });

/** The `data` of a webhook delivery (docs/api.md, "Events"): the feed carries the same. */
export const webhookData = obj({
  eventId: str('`evt_…`'),
  orderId: str(),
  flow: { enum: ['one_step', 'two_step'] },
  type: str(),
  status: str(),
  previousStatus: nullable(str()),
  sequence: int(),
  shareClassId: id('SC'),
  investorId: str(),
  distributorId: str(),
  amount: nullable(decimal()),
  currency: nullable(str()),
  tokenCount: nullable(decimal()),
  settlementNav: nullable(decimal()),
  settlementTokens: nullable(decimal()),
  settlementAmount: nullable(decimal()),
  transferHash: nullable(str()),
  reason: nullable(str()),
  ...dealingDates(),
  occurredAt: epochMs(),
  test: bool(),
});

export const eventFeedPage = additive(
  obj({
    items: arrayOf(
      obj({
        eventId: str("`evt_…`, equal to the deliveries' `webhook-id`"),
        event_type: eventType,
        data: webhookData,
        occurredAt: epochMs(),
      }),
    ),
    nextCursor: nullable(str('Pass as `after`')),
    hasMore: bool(),
  }),
);
