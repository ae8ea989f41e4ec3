import { LockMode } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { keccak256, type Hex, type TransactionReceipt } from 'viem';
import { logger } from '../../common/logger';
import { WakeLoop } from '../../events/wake-loop';
import { ChainOutages } from './chain-outages';
import { isDatabaseAway } from './chain.errors';
import { ChainSigner, ChainTransaction, ChainTxStatus, stamped } from './chain-transaction.entity';
import { releaseLeases, withLease } from './agent-lease';
import { signReplacement } from './replacement';
import type { ChainHandle, Chains } from './chains';
import { readCallFailure, revertReasonOf } from './revert';
import { AGENT_ROLE_ABI, IDENTITY_ABI, TOKEN_ABI } from './contracts';
import type { OutcomeHandler } from './outcomes';
import { IntentRows } from './intent-rows';

const ABIS = [TOKEN_ABI, AGENT_ROLE_ABI, IDENTITY_ABI];

/**
 * The one writer of each agent key: it signs queued intents (a call first: a revert fails the
 * intent with the contract's reason, nothing sent), with a nonce allocated in PostgreSQL while it
 * holds the key's lease; stores the raw transaction and its hash before sending; sends the same
 * bytes again after a restart or when the node forgot them; replaces a transaction not mined in
 * time at the same nonce with higher fees (every hash kept); follows receipts to the confirmation
 * depth, re-sending when a reorg takes a receipt away; and only then declares the outcome, once.
 *
 * Work runs per chain; each step forks its own EntityManager, like the event relay.
 */
export class ChainSender {
  /** Who holds a lease, as chain_signer.lease_owner shows it: this process (pid) and this sender. */
  readonly owner = `${process.pid}:${randomUUID()}`;
  private readonly loop: WakeLoop;
  private readonly outages = new ChainOutages('chain sender');
  private readonly waiters = new Set<() => void>();
  private readonly rows: IntentRows;

  constructor(
    private readonly orm: MikroORM,
    private readonly chains: Chains,
    onOutcome: OutcomeHandler,
    pollMs = 250,
  ) {
    this.loop = new WakeLoop('chain sender', () => this.pass(), pollMs);
    this.rows = new IntentRows(orm, onOutcome);
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    await releaseLeases(this.orm, this.owner);
  }

  wake(): void {
    this.loop.wake();
  }

  /** Resolves after the next full pass (callers waiting for an intent poll the database between passes). */
  passed(): Promise<void> {
    if (this.loop.isStopped) return Promise.reject(new Error('the chain sender is stopped'));
    return new Promise((resolve) => {
      this.waiters.add(resolve);
      this.wake();
    });
  }

  private async pass(): Promise<boolean> {
    const waiting = [...this.waiters];
    this.waiters.clear();
    for (const chain of this.chains.writable()) {
      // A chain whose node is away is logged once per outage and the others go on; a database
      // that is away stops the pass (the loop logs it once and backs off).
      const outage = this.outages.of(chain.id);
      try {
        await this.work(chain);
        outage.back();
      } catch (err) {
        if (isDatabaseAway(err)) throw err;
        outage.lost(err);
      }
    }
    for (const w of waiting) w();
    return false;
  }

  private async work(chain: ChainHandle): Promise<void> {
    await withLease(this.orm, chain, this.owner, async () => {
      await this.signQueued(chain);
      await this.sendSigned(chain);
      await this.follow(chain);
    });
  }

  private intents(chain: ChainHandle, statuses: ChainTxStatus[]): Promise<ChainTransaction[]> {
    return this.orm.em
      .fork()
      .find(ChainTransaction, { chainId: chain.id, fromAddress: chain.agent!, status: { $in: statuses } }, { orderBy: { id: 'asc' }, limit: 100 });
  }

  /** Queued → signed (or failed by its call). Stops at the first RPC failure: order is nonce order. */
  private async signQueued(chain: ChainHandle): Promise<void> {
    for (const intent of await this.intents(chain, [ChainTxStatus.queued])) {
      const account = chain.account!;
      const call = { account: account.address, to: (intent.toAddress ?? undefined) as Hex | undefined, data: intent.data as Hex };
      let gas: bigint;
      try {
        await chain.client.call(call);
        gas = intent.gasLimit ? BigInt(intent.gasLimit) : ((await chain.client.estimateGas(call)) * 13n) / 10n + 10_000n;
      } catch (err) {
        const failure = readCallFailure(err, ABIS);
        if (failure.reverted) {
          await this.rows.finish(intent.id, ChainTxStatus.failed, { revertReason: failure.reason }, { ok: false, reason: failure.reason, hash: null });
          continue;
        }
        await this.rows.noteError(intent.id, failure.message);
        return;
      }
      let fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
      let pending: number;
      try {
        fees = await chain.client.estimateFeesPerGas();
        pending = await chain.client.getTransactionCount({ address: account.address, blockTag: 'pending' });
      } catch (err) {
        const failure = readCallFailure(err);
        await this.rows.noteError(intent.id, failure.reverted ? 'fee estimate failed' : failure.message);
        return;
      }
      await this.orm.em.fork().transactional(async (em) => {
        const signer = await em.findOne(
          ChainSigner,
          { chainId: chain.id, address: chain.agent!, leaseOwner: this.owner },
          { lockMode: LockMode.PESSIMISTIC_WRITE },
        );
        if (!signer) throw new Error('lease lost');
        const row = await em.findOneOrFail(ChainTransaction, { id: intent.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        if (row.status !== ChainTxStatus.queued) return;
        const nonce = BigInt(signer.nextNonce) > BigInt(pending) ? BigInt(signer.nextNonce) : BigInt(pending);
        const raw = await account.signTransaction({
          chainId: chain.chain.id,
          type: 'eip1559',
          nonce: Number(nonce),
          to: call.to ?? null,
          data: call.data,
          gas,
          maxFeePerGas: fees.maxFeePerGas,
          maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
        });
        const hash = keccak256(raw);
        signer.nextNonce = String(nonce + 1n);
        em.assign(
          row,
          stamped({
            nonce: String(nonce),
            gasLimit: String(gas),
            maxFeePerGas: String(fees.maxFeePerGas),
            maxPriorityFeePerGas: String(fees.maxPriorityFeePerGas),
            rawTx: raw,
            hash,
            hashes: [hash],
            status: ChainTxStatus.signed,
            lastError: null,
          }),
        );
      });
    }
  }

  /** Signed → sent: the stored bytes, whatever happened before (a crash, a lost answer). */
  private async sendSigned(chain: ChainHandle): Promise<void> {
    for (const intent of await this.intents(chain, [ChainTxStatus.signed])) {
      if (!(await this.broadcast(chain, intent))) return;
    }
  }

  /** Sends the intent's current bytes; false when the node could not be reached. */
  private async broadcast(chain: ChainHandle, intent: ChainTransaction): Promise<boolean> {
    try {
      await chain.client.sendRawTransaction({ serializedTransaction: intent.rawTx as Hex });
    } catch (err) {
      const message = ((err as { details?: string }).details ?? (err as Error).message ?? '').toLowerCase();
      if (message.includes('already known') || message.includes('already imported') || message.includes('known transaction')) {
        // The node has these bytes: sent.
      } else if (message.includes('nonce too low') || message.includes('nonce has already been used')) {
        // Ambiguous: one of ours may be mined. Look it up by hash; never sign again blindly.
        const receipt = await this.findReceipt(chain, intent).catch(() => null);
        if (!receipt) {
          const reason = `nonce ${intent.nonce} was used by a transaction the gateway did not sign`;
          await this.rows.finish(intent.id, ChainTxStatus.failed, { revertReason: reason }, { ok: false, reason, hash: null });
          return true;
        }
      } else if (readCallFailure(err).reverted === false && !message.includes('underpriced')) {
        // The short message only: a full viem message names the RPC URL, which may carry a key.
        await this.rows.noteError(intent.id, (err as { shortMessage?: string }).shortMessage ?? 'the node could not be reached');
        return false;
      } else {
        await this.rows.noteError(intent.id, message);
        return true;
      }
    }
    await this.rows.patch(
      { id: intent.id, status: { $in: [ChainTxStatus.signed, ChainTxStatus.sent] } },
      { status: ChainTxStatus.sent, sentAt: new Date(), lastError: null },
    );
    return true;
  }

  /** The receipt of any of the intent's transactions (a replacement or the one it replaced), newest first. */
  private async findReceipt(chain: ChainHandle, intent: ChainTransaction): Promise<TransactionReceipt | null> {
    for (const hash of [...intent.hashes].reverse()) {
      const receipt = await chain.client.getTransactionReceipt({ hash: hash as Hex }).catch((err) => {
        if ((err as Error).name === 'TransactionReceiptNotFoundError') return null;
        throw err;
      });
      if (receipt) return receipt;
    }
    return null;
  }

  /** Sent and mined intents: receipts, confirmations, reorgs, replacements, and the outcome at depth. */
  private async follow(chain: ChainHandle): Promise<void> {
    const open = await this.intents(chain, [ChainTxStatus.sent, ChainTxStatus.mined]);
    if (!open.length) return;
    let head = await chain.client.getBlockNumber();
    for (const intent of open) {
      const receipt = await this.findReceipt(chain, intent);
      if (receipt) {
        // Mined since the head was read: count from a head that includes its block.
        if (receipt.blockNumber > head) head = await chain.client.getBlockNumber();
        // The block must still be the canonical one at that height.
        const block = await chain.client.getBlock({ blockNumber: receipt.blockNumber }).catch(() => null);
        if (!block || block.hash !== receipt.blockHash) continue;
        const confirmations = Number(head - receipt.blockNumber + 1n);
        const mined = {
          hash: receipt.transactionHash,
          blockNumber: String(receipt.blockNumber),
          blockHash: receipt.blockHash,
          gasUsed: String(receipt.gasUsed),
          contractAddress: receipt.contractAddress?.toLowerCase() ?? null,
          confirmations,
        };
        if (confirmations < intent.requiredConfirmations) {
          await this.rows.patch({ id: intent.id, status: { $in: [ChainTxStatus.sent, ChainTxStatus.mined] } }, { ...mined, status: ChainTxStatus.mined });
          continue;
        }
        if (receipt.status === 'success') {
          await this.rows.finish(intent.id, ChainTxStatus.confirmed, mined, {
            ok: true,
            hash: receipt.transactionHash,
            contractAddress: mined.contractAddress,
            logs: receipt.logs.map((l) => ({ address: l.address, logIndex: l.logIndex, topics: l.topics, data: l.data })),
          });
        } else {
          const reason = await revertReasonOf(chain, intent, receipt, ABIS);
          await this.rows.finish(intent.id, ChainTxStatus.reverted, { ...mined, revertReason: reason }, { ok: false, reason, hash: receipt.transactionHash });
        }
        continue;
      }
      if (intent.status === ChainTxStatus.mined) {
        // Its block left the chain (a reorg) before the confirmation depth: send the same bytes again.
        logger.warn({ chainId: chain.id, intent: intent.id, hash: intent.hash }, 'receipt gone (reorg): sending the transaction again');
        await this.rows.patch(
          { id: intent.id, status: ChainTxStatus.mined },
          { status: ChainTxStatus.sent, confirmations: 0, blockNumber: null, blockHash: null },
        );
        intent.status = ChainTxStatus.sent;
      }
      const known = await chain.client.getTransaction({ hash: intent.hash as Hex }).catch(() => null);
      if (!known) {
        // Dropped from the node's pool (or reorged away): the same bytes again.
        await this.broadcast(chain, intent);
        continue;
      }
      if (intent.sentAt && Date.now() - intent.sentAt.getTime() > chain.config.replaceAfterMs) await this.replace(chain, intent);
    }
  }

  /** A replacement at the same nonce (replacement.ts) sent; every hash is kept. */
  private async replace(chain: ChainHandle, intent: ChainTransaction): Promise<void> {
    const r = await signReplacement(chain, intent);
    const hashes = [...intent.hashes, r.hash];
    const updated = await this.rows.patch(
      { id: intent.id, status: ChainTxStatus.sent, hash: intent.hash },
      {
        rawTx: r.raw,
        hash: r.hash,
        hashes,
        maxFeePerGas: String(r.maxFeePerGas),
        maxPriorityFeePerGas: String(r.maxPriorityFeePerGas),
        status: ChainTxStatus.signed,
      },
    );
    if (!updated) return;
    logger.info({ chainId: chain.id, intent: intent.id, replaced: intent.hash, by: r.hash }, 'transaction not mined in time: replaced at the same nonce');
    await this.broadcast(chain, Object.assign(intent, { rawTx: r.raw, hash: r.hash, hashes }));
  }
}
