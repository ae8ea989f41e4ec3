import type { EntityManager } from '@mikro-orm/postgresql';
import { badRequest } from '../../common/errors';
import { toUnits } from '../../common/units';
import type { Order } from '../order';
import { Token } from '../token';

/**
 * What settlement may assume of an order: ops accepted it (one-step.service.ts `accept`), which
 * fixed its chain and delivery wallet and priced it (its tokens), and a dealing date's repricing
 * keeps them. The type says so once, where the order enters settlement, instead of a `!` at
 * each use.
 */
export type AcceptedOrder = Order & { chainId: string; deliveryWallet: string; settlementTokens: string };

/** An accepted order and the token it settles in, on its chain. */
export interface SettlingOrder {
  order: AcceptedOrder;
  token: Token;
}

/** The order as settlement sees it; an order without its chain, wallet or tokens was never accepted, and settles nothing. */
export function acceptedOrder(order: Order): AcceptedOrder {
  const { chainId, deliveryWallet, settlementTokens } = order;
  if (!chainId || !deliveryWallet || !settlementTokens) throw badRequest(`order ${order.id} has no chain, delivery wallet or price: it was not accepted`);
  return order as AcceptedOrder;
}

/** The token the order settles in: its share class's on the order's chain, the primary first. */
export async function settlingToken(em: EntityManager, order: { shareClass: { id: string }; chainId: string }): Promise<Token> {
  const token = await em.findOne(Token, { shareClass: order.shareClass.id, chainId: order.chainId }, { orderBy: { isPrimary: 'desc' } });
  if (!token) throw badRequest(`share class ${order.shareClass.id} has no token on chain ${order.chainId}`);
  return token;
}

/** The order's tokens (a decimal string) in the token's units. */
export const unitsOf = ({ order, token }: SettlingOrder): bigint => toUnits(order.settlementTokens, token.decimals);
