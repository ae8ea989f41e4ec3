import type { EntityManager } from '@mikro-orm/postgresql';
import { toUnits } from '../../common/units';
import type { LedgerIntent, TokenLedger } from '../../ledger/token-ledger';
import type { Token } from '../token';
import type { DistributionEntitlement } from './distribution.entity';

/** The intents' purpose: its family `distribution` routes outcomes here (app.ts). */
export const DISTRIBUTION_MINT = 'distribution.batchMint';
/** Rows per batchMint: T-REX's batchMint costs up to ~106k gas a row, so 100 rows stay well under a block. */
const ROWS_PER_BATCH = 100;

/** What the distribution service does with a batch's outcome, in the transaction that makes it final. */
export interface MintOutcomes {
  minted(em: EntityManager, transactionId: string, hash: string): Promise<void>;
  /** A batch that reverted: its rows go again in halves until the bad row is alone, which then fails. */
  reverted(em: EntityManager, transactionId: string, reason: string, hash: string | null): Promise<void>;
}

/**
 * The one place the income module speaks to the chain: reinvestment mints through the chain's
 * exactly-once intents. `enqueue` writes the intents and the rows' `transaction_id` into the caller's transaction: they commit with the
 * distribution's `paying` state or not at all, and a second run finds nothing pending to send.
 */
export class DistributionOnChain {
  constructor(private readonly chain: TokenLedger) {}

  writes(chainId: string): boolean {
    return this.chain.writes(chainId);
  }

  reachable(chainId: string): Promise<void> {
    return this.chain.reachable(chainId);
  }

  /** Batches of rows (each with its wallet and tokens), each a batchMint intent; rows get its id. */
  async enqueue(em: EntityManager, token: Token, rows: DistributionEntitlement[]): Promise<void> {
    const batches: DistributionEntitlement[][] = [];
    for (let i = 0; i < rows.length; i += ROWS_PER_BATCH) batches.push(rows.slice(i, i + ROWS_PER_BATCH));
    await this.enqueueBatches(em, token, batches);
  }

  /** A reverted batch's rows as two new intents (halves). */
  async split(em: EntityManager, token: Token, rows: DistributionEntitlement[]): Promise<void> {
    const half = Math.ceil(rows.length / 2);
    await this.enqueueBatches(em, token, [rows.slice(0, half), rows.slice(half)]);
  }

  /**
   * Every batch's intent, then the rows' `transaction_id`: two flushes whatever the number of
   * batches (a flush looks at every entity the unit of work holds: one per batch made 10,000
   * holders' payment quadratic).
   */
  private async enqueueBatches(em: EntityManager, token: Token, batches: DistributionEntitlement[][]): Promise<void> {
    const intents: LedgerIntent[] = batches.map((rows) =>
      this.chain.intend(
        em,
        { chainId: token.chainId, purpose: DISTRIBUTION_MINT },
        { op: 'batchMint', token: token.contractAddress, rows: rows.map((r) => ({ wallet: r.wallet!, units: toUnits(r.tokens!, token.decimals) })) },
      ),
    );
    // The ids are the rows' keys: the intents are written first.
    await em.flush();
    batches.forEach((rows, i) => rows.forEach((r) => (r.transactionId = String(intents[i].id))));
    await em.flush();
  }

  wake(): void {
    this.chain.wake();
  }

  /** The `distribution` family's outcomes go to `outcomes` (the service), in the sender's transaction. */
  register(outcomes: MintOutcomes): void {
    this.chain.onOutcome('distribution', async (em, tx, outcome) => {
      if (outcome.ok) return outcomes.minted(em, String(tx.id), outcome.hash);
      await outcomes.reverted(em, String(tx.id), outcome.reason, outcome.hash);
      this.chain.wake();
    });
  }
}
