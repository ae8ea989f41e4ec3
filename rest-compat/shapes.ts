import { decimalNumber } from '../src/common/money';
import type { RestShareClassFragment } from './generated/graphql';

/*
 * Shapes shared by both surfaces' tables: how a GraphQL result becomes the documented record.
 */

/** The share-class record: its id travels in the URL; `shareClassId` is added for list items. */
export function shareClassRecord(sc: RestShareClassFragment) {
  const { id, ...rest } = sc;
  return { shareClassId: id, ...rest };
}

/** `{items, count}`: the description's list shape. */
export function listOf<T>(items: T[]) {
  return { items, count: items.length };
}

/** A money field the description types as a number (`amountFeesTotal`, `amountPayable` …); null stays null. */
export function moneyNumber(value: string | null | undefined): number | null {
  return value == null ? null : decimalNumber(value);
}
