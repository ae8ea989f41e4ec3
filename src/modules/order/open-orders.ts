import type { EntityManager } from '@mikro-orm/postgresql';
import { Dec } from '../../common/money';
import { rawRows } from '../../persistence/raw-query';
import type { HoldingKey, OpenOrders } from '../holding';
import { OrderFlow, OrderType } from './order.entity';
import { RESERVING_STATUSES } from './order-states';

const inList = (statuses: readonly string[]) => statuses.map((s) => `'${s}'`).join(', ');

/**
 * The open redemptions of a holding: what its one-step redemptions in a reserving status promised.
 * The condition is the partial index `order_open_redemption_index`'s (order.entity.ts); the plan
 * test (test/performance/hot-query-plans.test.ts) fails if the two part.
 */
export const OPEN_REDEMPTION_CONDITION = `flow = '${OrderFlow.one_step}' and type = '${OrderType.redemption}' and status in (${inList(RESERVING_STATUSES)})`;

const RESERVED_SQL = `select coalesce(sum(token_count), 0)::text as tokens from "order" where investor_id = ? and share_class_id = ? and ${OPEN_REDEMPTION_CONDITION}`;

/**
 * Accepted one-step subscriptions not yet settled, at the tokens they were priced at on acceptance
 * (`settlement_tokens`): that is what will be minted. An accepted order without a price yet (a
 * dealing date not yet struck) counts for nothing rather than at a guessed NAV: a distributor
 * reading `pendingIn` as a promise must not be shown tokens whose price nobody has set.
 */
const EXPECTED_SQL = `select coalesce(sum(settlement_tokens), 0)::text as tokens from "order"
  where investor_id = ? and share_class_id = ? and status = 'accepted' and flow = '${OrderFlow.one_step}' and type = '${OrderType.subscription}'`;

/** The order book as the holding ledger reads it (holding-ledger.ts's OpenOrders). */
export const openOrders: OpenOrders = {
  reserved: (em, key) => sumOf(em, RESERVED_SQL, key),
  expected: (em, key) => sumOf(em, EXPECTED_SQL, key),
};

async function sumOf(em: EntityManager, sql: string, key: HoldingKey): Promise<Dec> {
  const [row] = await rawRows<{ tokens: string }>(em, sql, [key.investorId, key.shareClassId]);
  return new Dec(row?.tokens ?? '0');
}
