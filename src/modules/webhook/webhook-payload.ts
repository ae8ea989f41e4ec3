import { shownId } from '../../common/ids';
import { payloadText } from '../../common/payload-text';
import { decimalString, isDecimalLiteral } from '../../common/money';
import type { EntityManager } from '@mikro-orm/postgresql';
import { orderColumnsById } from './webhook.queries';
import { metadataOf, type RawTransaction } from '../../persistence/raw-transaction';
import { projection, rowRecord, type Projected } from '../../persistence/read-record';
import { Order } from '../order';

/**
 * The `data` of a webhook body. One shape for the four events; fields an event does not have are
 * null, so receivers read a stable object. Ids are those of the surface the order came through
 * (`PT`/`US` for surface O). Amounts are decimal strings. Documented in docs/api.md ("Webhooks").
 */
export interface WebhookData {
  eventId: string;
  orderId: string;
  flow: string;
  type: string;
  status: string;
  previousStatus: string | null;
  sequence: number;
  shareClassId: string;
  investorId: string;
  distributorId: string;
  amount: string | null;
  currency: string | null;
  tokenCount: string | null;
  settlementNav: string | null;
  settlementTokens: string | null;
  settlementAmount: string | null;
  transferHash: string | null;
  reason: string | null;
  /** Fixed at placement: `YYYY-MM-DD` in the share class's dealing zone, the cut-off (epoch ms), `YYYY-MM-DD`. */
  dealingDate: string | null;
  cutOffAt: number | null;
  expectedSettlementDate: string | null;
  occurredAt: number;
  test: boolean;
}

/** The order's fields a webhook body reads (orderWebhookData), and no other. */
const BODY_FIELDS = [
  'id',
  'eventSeq',
  'failureReason',
  'amount',
  'currency',
  'tokenCount',
  'settlementNav',
  'settlementTokens',
  'settlementAmount',
  'transferHash',
  'dealingDate',
  'cutOffAt',
  'expectedSettlementDate',
] as const;

/** An order as a webhook body reads it: a record of BODY_FIELDS, whose other fields throw when read. */
export type WebhookOrder = Projected<Order, (typeof BODY_FIELDS)[number]>;

/**
 * The orders a batch of webhook bodies reads (the relay's fan-out, the event feed), by id: one
 * plain statement of BODY_FIELDS' columns, read as records, not hydrated and tracked as entities.
 */
export async function webhookOrders(on: EntityManager | RawTransaction, ids: readonly string[]): Promise<Map<string, WebhookOrder>> {
  if (!ids.length) return new Map();
  const em = metadataOf(on);
  const fields = projection(em, Order, BODY_FIELDS);
  const rows = await orderColumnsById(on, fields.columns, ids);
  return new Map(
    rows.map((row) => {
      const order = rowRecord(em, Order, row, undefined, fields);
      return [order.id, order];
    }),
  );
}

const ONE_STEP_TYPE: Record<string, string> = { subscription: 'subscribe', redemption: 'redeem' };

const str = (v: unknown): string | null => (v === '' ? null : payloadText(v));
/** Amounts as plain decimal strings (`1000`, not `1000.000000000000000000`). */
const dec = (v: unknown): string | null =>
  v === undefined || v === null || v === '' ? null : isDecimalLiteral(v) ? decimalString(v as string) : payloadText(v);

const epochMs = (v: unknown): number | null => (v instanceof Date ? v.getTime() : typeof v === 'number' ? v : null);

/**
 * Builds `data` from an `order.transition` event payload. Facts of the transition come from the
 * payload; facts fixed at placement (amount, currency, token count) from the order. Settlement
 * facts missing from the payload are taken from the order only while it has not moved since.
 */
export function orderWebhookData(
  event: { eventId: string; occurredAt: Date; payload: Record<string, unknown> },
  order: WebhookOrder | null,
  test = false,
): WebhookData {
  const p = event.payload;
  const current = order !== null && order.eventSeq === p.sequence;
  const fromOrder = <K extends keyof WebhookOrder>(k: K): unknown => (current ? order[k] : undefined);
  const surface = p.surface === 'O' ? 'O' : 'R';
  const reason = p.failureReason ?? p.reason ?? fromOrder('failureReason') ?? (p.status === 'rejected' ? p.note : undefined);
  return {
    eventId: event.eventId,
    orderId: String(p.orderId),
    flow: String(p.flow),
    type: ONE_STEP_TYPE[String(p.type)] ?? String(p.type),
    status: String(p.status),
    previousStatus: str(p.previousStatus),
    sequence: Number(p.sequence),
    shareClassId: String(p.shareClassId),
    investorId: shownId(String(p.investorId), 'investor', surface),
    distributorId: shownId(String(p.distributorId), 'distributor', surface),
    amount: dec(p.amount ?? order?.amount),
    currency: str(p.currency ?? order?.currency),
    tokenCount: dec(p.tokenCount ?? order?.tokenCount),
    settlementNav: dec(p.settlementNav ?? fromOrder('settlementNav')),
    settlementTokens: dec(p.settlementTokens ?? fromOrder('settlementTokens')),
    settlementAmount: dec(p.settlementAmount ?? fromOrder('settlementAmount')),
    transferHash: str(p.transferHash ?? fromOrder('transferHash')),
    reason: str(reason),
    dealingDate: str(p.dealingDate ?? order?.dealingDate),
    cutOffAt: epochMs(p.cutOffAt ?? order?.cutOffAt),
    expectedSettlementDate: str(p.expectedSettlementDate ?? order?.expectedSettlementDate),
    occurredAt: event.occurredAt.getTime(),
    test,
  };
}
