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
 * Who declares what an intent's outcome means: the modules that enqueue intents register a
 * handler for their purposes once, when the services are wired (src/services.ts), and the sender
 * asks this registry for each intent that became final. A handler is registered under a purpose
 * (`settlement.mint`) or its family (`settlement`: every `settlement.*`); the exact purpose wins.
 * `deploy*` steps have none (ops wait for them). An intent whose purpose has no handler is a
 * programming error: it throws, the transaction rolls back and the intent is retried, so no
 * outcome is silently dropped.
 */
export class OutcomeHandlers {
  private readonly handlers = new Map<string, OutcomeHandler>();

  on(purpose: string, handler: OutcomeHandler): void {
    if (this.handlers.has(purpose)) throw new Error(`an outcome handler for chain transaction purpose ${purpose} is registered already`);
    this.handlers.set(purpose, handler);
  }

  readonly declare: OutcomeHandler = async (em, tx, outcome) => {
    const [family = tx.purpose] = tx.purpose.split('.');
    if (family === 'deploy') return;
    const handler = this.handlers.get(tx.purpose) ?? this.handlers.get(family);
    if (!handler) throw new Error(`no outcome handler for chain transaction purpose ${tx.purpose}`);
    await handler(em, tx, outcome);
  };
}
