import { LockMode, type FilterQuery } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { logger } from '../../common/logger';
import { runInScope } from '../../common/request-scope';
import { appendEvent } from '../../events/event-log';
import { ChainTransaction, ChainTxStatus, stamped, type IntentPatch } from './chain-transaction.entity';
import type { OutcomeHandler, TxOutcome } from './outcomes';

/**
 * The sender's writes to its intents' rows (sender.ts talks to the chain, this to the database):
 * a step's patch, guarded by the state it expects; the last error; and the final step, which
 * declares the outcome through the port's handlers in the same transaction.
 */
export class IntentRows {
  constructor(
    private readonly orm: MikroORM,
    private readonly onOutcome: OutcomeHandler,
  ) {}

  /** Writes a patch (stamped) to the intent `where` names; the number of rows changed (0: it had moved on). */
  patch(where: FilterQuery<ChainTransaction>, patch: IntentPatch): Promise<number> {
    return this.orm.em.fork().nativeUpdate(ChainTransaction, where, stamped(patch));
  }

  async noteError(id: string, message: string): Promise<void> {
    await this.patch({ id }, { lastError: message.slice(0, 500) });
  }

  /** Makes an intent final and declares its outcome in one transaction: once, or not at all. */
  async finish(id: string, status: ChainTxStatus, fields: IntentPatch, outcome: TxOutcome): Promise<void> {
    try {
      // What the chain decided is recorded as the chain's doing (the history's `by`).
      await runInScope({ actor: 'chain' }, () =>
        this.orm.em.fork().transactional(async (em) => {
          const row = await em.findOneOrFail(ChainTransaction, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
          if ([ChainTxStatus.confirmed, ChainTxStatus.reverted, ChainTxStatus.failed].includes(row.status)) return;
          em.assign(row, stamped({ ...fields, status, lastError: null }));
          await em.flush();
          await this.onOutcome(em, row, outcome);
          // Told live (the console's wallets, tokens and orders follow it) with what it settled.
          appendEvent(em, {
            type: 'chain.transaction_final',
            aggregateType: 'chain_transaction',
            aggregateId: row.id,
            occurredAt: new Date(),
            payload: {
              chainTransactionId: row.id,
              chainId: row.chainId,
              purpose: row.purpose,
              status,
              correlation: row.correlation ?? null,
              walletId: row.walletId ?? null,
            },
          });
        }),
      );
    } catch (err) {
      logger.error({ err, intent: id }, 'declaring a chain transaction outcome failed; retried on the next pass');
      await this.noteError(id, `outcome not recorded: ${(err as Error).message}`).catch(() => undefined);
    }
  }
}
