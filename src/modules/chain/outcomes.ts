import type { Hex } from 'viem';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ChainTransaction } from './chain-transaction.entity';

/** How an intent ended at its confirmation depth (or before reaching a block). */
export type TxOutcome = { ok: true; hash: string; contractAddress: string | null; logs?: TxLog[] } | { ok: false; reason: string; hash: string | null };

/** A log of the receipt: a settlement records the log index of each order's `Transfer`. */
export interface TxLog {
  address: string;
  logIndex: number;
  topics: readonly Hex[];
  data: Hex;
}

/**
 * Declares an intent's business outcome, inside the transaction that makes the intent final:
 * both commit together or neither does, so an outcome is declared exactly once.
 */
export type OutcomeHandler = (em: EntityManager, tx: ChainTransaction, outcome: TxOutcome) => Promise<void>;


/**
 * Routes an intent's outcome by its purpose's family (`settlement.*`, `wallet.*`); `deploy`
 * steps have none (ops wait for them). An unknown family is a programming error: it throws, the
 * transaction rolls back and the intent is retried, so no outcome is silently dropped.
 */
export function routeOutcomes(handlers: Record<string, OutcomeHandler>): OutcomeHandler {
  return async (em, tx, outcome) => {
    const family = tx.purpose.split('.')[0]!;
    if (family === 'deploy') return;
    const handler = handlers[family];
    if (!handler) throw new Error(`no outcome handler for chain transaction purpose ${tx.purpose}`);
    await handler(em, tx, outcome);
  };
}
