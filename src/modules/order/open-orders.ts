import { Dec } from '../../common/money';
import type { OpenOrders } from '../holding';
import { expectedTokens, reservedTokens } from './order.queries';

export { OPEN_REDEMPTION_CONDITION } from './order.queries';

/** The order book as the holding ledger reads it (holding-ledger.ts's OpenOrders). */
export const openOrders: OpenOrders = {
  reserved: async (em, key) => new Dec(await reservedTokens(em, key)),
  expected: async (em, key) => new Dec(await expectedTokens(em, key)),
};
