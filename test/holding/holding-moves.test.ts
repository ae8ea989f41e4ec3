import { Dec, decimalString } from '../../src/common/money';
import { runInScope } from '../../src/common/request-scope';
import { rawRows } from '../../src/persistence/raw-query';
import { bookOpening } from '../../src/modules/holding/holding-ledger';
import { LotSource } from '../../src/modules/holding/holding-lot.entity';
import { holdingKey } from '../../src/modules/holding/holding-lots';
import { applyMoves, lockHoldings, lockRow, type Move, type Moved } from '../../src/modules/holding/holding-moves';
import { aMarket, anInvestor } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';

/*
 * `applyMoves` is the one code that changes holdings: one move, a dealing date's batch and a
 * distribution's arrivals all go through it. Its promise: a list of moves books exactly what the
 * same moves booked one at a time would, in every column of every row it writes (the tables'
 * columns are read with `select *`, so a new column is compared without touching this test).
 * Checked over generated lists that mix every kind of move the ledger makes, over two holdings:
 * tokens in as one lot settled in the past, in as lots kept from elsewhere (older than the
 * holding's own), out across several lots, and into a holding that does not exist yet.
 */

const DAY = 86_400_000;
const SOURCES = Object.values(LotSource);

/** A small seeded generator (mulberry32): the same lists on every run. */
function generator(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Planned {
  holding: 0 | 1;
  change: Dec;
  source: LotSource;
  at: Date;
  settledAt?: Date;
  lots?: { quantity: string; settledAt: Date }[];
}

/** A list of moves the ledger could be asked to book: never more out than the holding has. */
function plan(seed: number, start: Date): { openings: { holding: 0 | 1; quantity: string; settledAt: Date }[]; moves: Planned[] } {
  const random = generator(seed);
  const amount = (max: number) => new Dec(Math.max(1, Math.floor(random() * max * 100))).div(100);
  const before = (days: number) => new Date(start.getTime() - Math.ceil(random() * days) * DAY);
  // The first holding opens with two lots; the second exists with one lot on odd seeds, not at all on even ones.
  const openings: { holding: 0 | 1; quantity: string; settledAt: Date }[] = [
    { holding: 0, quantity: decimalString(amount(50)), settledAt: before(30) },
    { holding: 0, quantity: decimalString(amount(50)), settledAt: before(30) },
  ];
  if (seed % 2) openings.push({ holding: 1, quantity: decimalString(amount(50)), settledAt: before(30) });
  const balances = [0, 1].map((h) => openings.filter((o) => o.holding === h).reduce((sum, o) => sum.plus(o.quantity), new Dec(0)));
  const moves: Planned[] = [];
  for (let n = 0; n < 10; n++) {
    const holding = random() < 0.5 ? 0 : 1;
    const at = new Date(start.getTime() + n * 1_000);
    const source = SOURCES[Math.floor(random() * SOURCES.length)];
    const kind = random();
    if (kind < 0.4 && balances[holding].gt(0)) {
      // Out: up to all the holding has, often more than its oldest lot.
      const change = Dec.min(balances[holding], amount(40)).negated();
      balances[holding] = balances[holding].plus(change);
      moves.push({ holding, change, source, at });
    } else if (kind < 0.7) {
      const change = amount(30);
      balances[holding] = balances[holding].plus(change);
      moves.push({ holding, change, source, at, settledAt: before(40) });
    } else {
      // In as kept lots: pieces settled long ago, the rest at `at` (as piecesCovering makes them).
      const first = amount(10);
      const second = amount(10);
      const rest = amount(5);
      const change = first.plus(second).plus(rest);
      balances[holding] = balances[holding].plus(change);
      const lots = [
        { quantity: decimalString(first), settledAt: before(90) },
        { quantity: decimalString(second), settledAt: before(60) },
        { quantity: decimalString(rest), settledAt: at },
      ];
      moves.push({ holding, change, source, at, lots });
    }
  }
  return { openings, moves };
}

describe('The holding ledger moves holdings one way', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  /** Every row the two holdings of `investors` have, every column but the row's own id; the investors named by their place. */
  async function state(investors: string[], shareClassId: string): Promise<unknown> {
    const named = (value: unknown): unknown =>
      JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'string' && investors.includes(v) ? `investor ${investors.indexOf(v)}` : v)));
    const rows = async (table: string, order: string) =>
      (await rawRows<Record<string, unknown>>(gw.em(), `select * from ${table} where investor_id = any(?::text[]) order by ${order}`, [investors])).map(
        ({ id: _id, ...row }) => named(row),
      );
    const aggregates = investors.map((i) => `${i}:${shareClassId}`);
    const events = (
      await rawRows<Record<string, unknown>>(gw.em(), 'select * from "event" where aggregate_id = any(?::text[]) order by position', [aggregates])
    ).map(
      // The event's own identity and the relay's marks are the event's, not the move's.
      ({ position: _p, event_id: _e, relayed_at: _r, feed_position: _f, ...row }) =>
        named({ ...row, aggregate_id: String(row.aggregate_id).replace(`:${shareClassId}`, '') }),
    );
    return {
      holdings: await rows('holding', 'investor_id'),
      lots: await rows('holding_lot', 'id'),
      journal: await rows('holding_movement', 'id'),
      events,
    };
  }

  it('books a list of moves exactly as the same moves one at a time: every column of holdings, lots, journal and events, over 24 generated lists', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    const start = new Date(Math.floor(gw.clock.now().getTime() / 1_000) * 1_000);
    for (let seed = 1; seed <= 24; seed++) {
      // given two pairs of holdings opened alike
      const { openings, moves } = plan(seed, start);
      const pairs = await Promise.all([0, 1].map(async () => [await anInvestor(gw.em(), m.distributor), await anInvestor(gw.em(), m.distributor)]));
      const [together, alone] = pairs.map((pair) => pair.map((i) => i.id));
      for (const ids of [together, alone])
        for (const o of openings)
          await gw
            .em()
            .transactional((em) =>
              bookOpening(em, { investorId: ids[o.holding], shareClassId: m.shareClass.id, quantity: o.quantity, settledAt: o.settledAt, at: start }),
            );
      const movesOf = (ids: string[]): Move[] =>
        moves.map((p, n) => ({
          investorId: ids[p.holding],
          shareClassId: m.shareClass.id,
          change: p.change,
          source: p.source,
          at: p.at,
          settledAt: p.settledAt,
          lots: p.lots,
          transferHash: `0x${seed}${n}`,
          reason: `move ${n}`,
          event: { distributorId: m.distributor.id, payload: { n } },
        }));

      // when one pair's moves are booked as one list, and the other's one at a time, each in a transaction of its own
      const listed = await runInScope({ actor: 'test' }, () =>
        gw.em().transactional(async (em) => (await applyMoves(em, await lockHoldings(em, movesOf(together)), movesOf(together))).moved),
      );
      const single: Moved[] = [];
      for (const move of movesOf(alone)) {
        const [one] = await runInScope({ actor: 'test' }, () =>
          gw.em().transactional(async (em) => {
            const balance = await lockRow(em, move, move.at);
            return (await applyMoves(em, new Map([[holdingKey(move.investorId, move.shareClassId), balance]]), [move])).moved;
          }),
        );
        single.push(one);
      }

      // then each move did the same, and every row of the two pairs reads the same
      expect({ seed, moved: listed }).toEqual({ seed, moved: single });
      expect({ seed, rows: await state(together, m.shareClass.id) }).toEqual({ seed, rows: await state(alone, m.shareClass.id) });
    }
  });

  it('a move outside a transaction is refused before it writes anything', async () => {
    const m = await aMarket(gw.em(), gw.clock.now());
    const key = { investorId: m.investor.id, shareClassId: m.shareClass.id };
    await expect(
      applyMoves(gw.em(), new Map([[holdingKey(key.investorId, key.shareClassId), new Dec(0)]]), [
        { ...key, change: new Dec(1), source: LotSource.adjustment, at: new Date() },
      ]),
    ).rejects.toThrow('the holding ledger works inside a transaction');
    expect(await rawRows(gw.em(), 'select 1 from holding_lot where investor_id = ?', [m.investor.id])).toEqual([]);
  });
});
