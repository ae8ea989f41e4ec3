import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { formatUnits, parseAbiItem, zeroAddress, type Hex, type Log } from 'viem';
import { rawRows } from '../../persistence/raw-query';
import { runInScope } from '../../common/request-scope';
import { appendEvent } from '../../events/event-log';
import { WakeLoop } from '../../events/wake-loop';
import { ChainOutages } from './chain-outages';
import { isDatabaseAway } from './chain.errors';
import type { LotPiece, Register } from './register-port';
import { holderOf, holdingOf, sideOf } from './chain-holders';
import { forkPoint, undoAfter } from './follower-reorg';
import { ChainMovement, ChainMovementKind } from './chain-movement.entity';
import type { FollowedToken, FollowerPorts } from './follower-ports';
import type { ChainHandle, Chains } from './chains';

/** One follower at a time across instances (a transaction-scoped advisory lock per pass). */
const FOLLOWER_LOCK = 734100022;
/** Blocks read per pass and chain (a long way behind catches up over several passes). */
const MAX_BLOCKS_PER_PASS = 2_000n;
/** How many processed blocks' hashes are kept to find where a reorg forked. */
const KEPT_BLOCKS = 256;

export const TRANSFER_EVENT = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

type TransferLog = Log<bigint, number, false, typeof TRANSFER_EVENT, true>;

/**
 * The chain follower: for every token on a configured chain, the `Transfer` logs from the last
 * processed block up to the confirmation depth (head − confirmations + 1), so the register hears
 * what moved without the gateway.
 *
 * - **Its own transactions are not followed**: a log whose transaction is one of the gateway's
 *   intents (any hash it signed, replacements included) was settled by the order it served.
 * - **What others moved** (ChainMovementKind): between two investors, out of one holding and
 *   into the other through the holding ledger (lots: the sender's oldest first; the receiver's
 *   lots keep those lots' settlement dates, so a transfer never locks tokens again; what no
 *   sender's lot covered, and all that comes from an unknown wallet, counts from the transfer;
 *   each side's `holding.changed` names its counterparty only within one distributor); between one investor's own wallets, nothing (the
 *   register is per investor, so lock-up keeps counting from the original settlement); to or from
 *   a wallet the register does not know, the known side moves and the movement is raised to ops
 *   (`chain.unknown_holder`); a mint or burn not sent by the gateway is recorded, not followed;
 *   a transfer to an investor the class's rule set refuses now is recorded with the rule
 *   (`ineligibility`: a category is the gateway's check, not the token's, and a rule may have changed since).
 * - **Reorg-safe**: the hash of the cursor's block and of every block with a movement is kept;
 *   when the cursor's block hash changed, the follower walks back to the newest kept block that
 *   is still canonical, undoes the movements after it (in reverse) and reads again from there.
 * - One instance follows at a time (advisory lock); each pass forks its own EntityManager, in one
 *   transaction with the cursor, so a crash re-reads what did not commit and nothing twice.
 */
export class ChainFollower {
  private readonly loop: WakeLoop;
  private readonly outages = new ChainOutages('chain follower');
  private stopping = false;

  constructor(
    private readonly orm: MikroORM,
    private readonly chains: Chains,
    private readonly ledger: Register,
    private readonly ports: FollowerPorts,
    private readonly clock: { now(): Date },
    pollMs = 1_000,
  ) {
    this.loop = new WakeLoop('chain follower', () => this.pass(), pollMs);
  }

  start(): void {
    this.stopping = false;
    this.loop.start();
  }

  /** Stops after the chain under way (its pass commits or rolls back whole). */
  stop(): Promise<void> {
    this.stopping = true;
    return this.loop.stop();
  }

  wake(): void {
    this.loop.wake();
  }

  /** One pass over every chain; true when a chain still has blocks to read (another pass at once). */
  async pass(): Promise<boolean> {
    let behind = false;
    for (const chain of this.chains.all()) {
      if (this.stopping) break;
      const outage = this.outages.of(chain.id);
      try {
        if (await runInScope({ actor: 'chain' }, () => this.follow(chain))) behind = true;
        outage.back();
      } catch (err) {
        if (isDatabaseAway(err)) throw err;
        outage.lost(err);
      }
    }
    return behind && !this.stopping;
  }

  /** Follows one chain by one step; true when more blocks wait. */
  async follow(chain: ChainHandle): Promise<boolean> {
    const head = await chain.client.getBlockNumber();
    const depth = BigInt(Math.max(1, chain.config.confirmations));
    const safe = head - depth + 1n;
    // A young chain (a fresh anvil) has no block deep enough yet: nothing to follow, nothing to ask.
    if (safe < 0n) return false;
    return this.orm.em.fork().transactional(async (em) => {
      const [locked] = await rawRows<{ ok: boolean }>(em, `select pg_try_advisory_xact_lock(${FOLLOWER_LOCK}) as ok`, []);
      if (!locked?.ok) return false;
      const tokens = await this.ports.tokensOf(em, chain.id);
      const [cursor] = await rawRows<{ block_number: string }>(em, 'select block_number::text from chain_follow_cursor where chain_id = ? for update', [
        chain.id,
      ]);
      if (!cursor) {
        // First pass on this chain: every token the gateway knows was deployed or registered by
        // it, so its history starts with its own transactions; follow from the deployment's block.
        const start = await this.firstBlock(em, chain.id, safe);
        await rawRows(em, 'insert into chain_follow_cursor (chain_id, block_number, updated_at) values (?, ?, ?)', [
          chain.id,
          String(start - 1n),
          this.clock.now(),
        ]);
        return true;
      }
      let from = BigInt(cursor.block_number) + 1n;
      const forkedAt = await forkPoint(em, chain, from - 1n);
      if (forkedAt !== null) {
        await undoAfter(em, this.ledger, chain.id, forkedAt, this.clock.now());
        from = forkedAt + 1n;
      }
      if (from > safe) {
        if (forkedAt !== null) await this.moveCursor(em, chain, forkedAt);
        return false;
      }
      const to = safe - from + 1n > MAX_BLOCKS_PER_PASS ? from + MAX_BLOCKS_PER_PASS - 1n : safe;
      if (tokens.length) {
        const logs = (await chain.client.getLogs({
          address: tokens.map((t) => t.address as Hex),
          event: TRANSFER_EVENT,
          fromBlock: from,
          toBlock: to,
          strict: true,
        })) as TransferLog[];
        const ours = await this.ourHashes(em, chain.id, [...new Set(logs.map((l) => l.transactionHash.toLowerCase()))]);
        for (const log of logs) {
          if (ours.has(log.transactionHash.toLowerCase())) continue;
          const token = tokens.find((t) => t.address === log.address.toLowerCase())!;
          await this.apply(em, chain.id, token, log);
          await rawRows(
            em,
            'insert into chain_followed_block (chain_id, block_number, block_hash) values (?, ?, ?) on conflict (chain_id, block_number) do update set block_hash = excluded.block_hash',
            [chain.id, String(log.blockNumber), log.blockHash.toLowerCase()],
          );
        }
      }
      await this.moveCursor(em, chain, to);
      return to < safe;
    });
  }

  /** The block of the gateway's first transaction on the chain (its deployments); without any, the safe head (the register starts there). */
  private async firstBlock(em: EntityManager, chainId: string, safe: bigint): Promise<bigint> {
    const [row] = await rawRows<{ first: string | null }>(em, 'select min(block_number)::text as first from chain_transaction where chain_id = ?', [chainId]);
    return row?.first ? BigInt(row.first) : safe;
  }

  /** Every hash the gateway signed on this chain among `hashes` (an intent's replacements included). */
  private async ourHashes(em: EntityManager, chainId: string, hashes: string[]): Promise<Set<string>> {
    if (!hashes.length) return new Set();
    const rows = await rawRows<{ h: string }>(
      em,
      'select lower(h) as h from chain_transaction, jsonb_array_elements_text(hashes) as h where chain_id = ? and lower(h) = any(?::text[])',
      [chainId, hashes],
    );
    return new Set(rows.map((r) => r.h));
  }

  /** Records the cursor at `block` with its hash, and forgets hashes older than the window. */
  private async moveCursor(em: EntityManager, chain: ChainHandle, block: bigint): Promise<void> {
    const hash = block >= 0n ? (await chain.client.getBlock({ blockNumber: block })).hash.toLowerCase() : null;
    await rawRows(em, 'update chain_follow_cursor set block_number = ?, updated_at = ? where chain_id = ?', [String(block), this.clock.now(), chain.id]);
    if (hash) {
      await rawRows(
        em,
        'insert into chain_followed_block (chain_id, block_number, block_hash) values (?, ?, ?) on conflict (chain_id, block_number) do update set block_hash = excluded.block_hash',
        [chain.id, String(block), hash],
      );
    }
    await rawRows(
      em,
      `delete from chain_followed_block where chain_id = ? and block_number < (select min(block_number) from (select block_number from chain_followed_block where chain_id = ? order by block_number desc limit ${KEPT_BLOCKS}) kept)`,
      [chain.id, chain.id],
    );
  }

  /** One `Transfer` someone else made: recorded, and followed by the register as its kind says. */
  private async apply(em: EntityManager, chainId: string, token: FollowedToken, log: TransferLog): Promise<void> {
    const fromAddress = log.args.from.toLowerCase();
    const toAddress = log.args.to.toLowerCase();
    const tokens = formatUnits(log.args.value, token.decimals);
    const [from, to] = [await holderOf(this.ledger, em, chainId, fromAddress), await holderOf(this.ledger, em, chainId, toAddress)];
    const issuance = fromAddress === zeroAddress || toAddress === zeroAddress;
    const kind = issuance
      ? ChainMovementKind.issuance
      : from && to && from.investorId === to.investorId
        ? ChainMovementKind.own_wallets
        : from && to
          ? ChainMovementKind.transfer
          : ChainMovementKind.unknown_holder;
    const now = this.clock.now();
    const movement = em.create(ChainMovement, {
      chainId,
      tokenAddress: token.address,
      shareClassId: token.shareClassId,
      blockNumber: String(log.blockNumber),
      blockHash: log.blockHash.toLowerCase(),
      logIndex: log.logIndex,
      transactionHash: log.transactionHash.toLowerCase(),
      fromAddress,
      toAddress,
      tokens,
      kind,
      fromInvestorId: from?.investorId,
      toInvestorId: to?.investorId,
      // A transfer between holders that got through a rule the token does not hold (a category is
      // the gateway's check) or one changed since: recorded with the rule, for ops (Today).
      ineligibility:
        kind === ChainMovementKind.transfer ? ((await this.ports.ineligibility(em, token.shareClassId, to!.investorId, now)) ?? undefined) : undefined,
      observedAt: now,
    });
    const payload = { chainId, from: fromAddress, to: toAddress, blockNumber: String(log.blockNumber) };
    if (kind === ChainMovementKind.transfer || kind === ChainMovementKind.unknown_holder) {
      const reason = `on-chain transfer ${movement.transactionHash}`;
      const block = { chainId, blockNumber: String(log.blockNumber) };
      let taken: LotPiece[] = [];
      if (from) {
        const side = sideOf(from, to, fromAddress, toAddress, 'out');
        const out = await this.ledger.chainMove(em, {
          ...holdingOf(from, token.shareClassId),
          change: `-${tokens}`,
          at: now,
          transferHash: movement.transactionHash,
          reason,
          payload: { ...block, ...side },
        });
        taken = out.taken;
        movement.lotsTaken = taken.map((l) => ({ quantity: l.quantity, settledAt: l.settledAt.toISOString() }));
      }
      if (to) {
        const side = sideOf(to, from, toAddress, fromAddress, 'in');
        // The tokens keep the settlement dates of the lots they left (a transfer never locks them again).
        await this.ledger.chainMove(em, {
          ...holdingOf(to, token.shareClassId),
          change: tokens,
          at: now,
          transferHash: movement.transactionHash,
          reason,
          lots: taken,
          payload: { ...block, ...side },
        });
      }
    }
    if (kind === ChainMovementKind.unknown_holder || kind === ChainMovementKind.issuance) {
      // Raised to ops: the register cannot say who holds these tokens, or they were issued without an order.
      appendEvent(em, {
        type: kind === ChainMovementKind.unknown_holder ? 'chain.unknown_holder' : 'chain.unexplained_issuance',
        aggregateType: 'chain_movement',
        aggregateId: `${chainId}:${movement.transactionHash}:${movement.logIndex}`,
        distributorId: (from ?? to)?.distributorId ?? null,
        occurredAt: now,
        payload: {
          ...payload,
          shareClassId: token.shareClassId,
          tokens,
          transactionHash: movement.transactionHash,
          fromInvestorId: from?.investorId ?? null,
          toInvestorId: to?.investorId ?? null,
        },
      });
    }
    await em.flush();
  }
}
