import { ManualClock } from '../../src/common/clock';
import { CLAIM_LEASE_MARGIN_MS, CLAIM_POLL_MS, Patience, PushClaims, type ClaimStore, type PushState } from '../../src/modules/order/push-claim';

/** One order's claim in memory, with the conditional update's semantics of orderClaims. */
function memoryStore(status = 'created'): ClaimStore & { row: PushState; onPoll?: () => void } {
  const store = {
    row: { status, claim: null as string | null, claimedAt: null as Date | null },
    onPoll: undefined as (() => void) | undefined,
    async take(_id: string, claim: string, now: Date, staleBefore: Date) {
      const r = store.row;
      if (r.status !== 'created' || (r.claim && r.claimedAt && r.claimedAt >= staleBefore)) return false;
      store.row = { ...r, claim, claimedAt: now };
      return true;
    },
    async state() {
      store.onPoll?.();
      return { ...store.row };
    },
    async release(_id: string, claim: string) {
      if (store.row.claim === claim) store.row = { ...store.row, claim: null, claimedAt: null };
    },
  };
  return store;
}

const errors = { notCreated: (s: string) => new Error(`not created: ${s}`), tooLong: () => new Error('push in progress') };

describe('The two-step push claim protocol (on the manual clock)', () => {
  let clock: ManualClock;
  let slept: number;
  let claims: PushClaims;
  beforeEach(() => {
    clock = new ManualClock();
    clock.set(new Date('2026-11-25T10:00:00Z'));
    slept = 0;
    // Sleeping moves the manual clock: the protocol sees time pass as it would.
    claims = new PushClaims(clock, async (ms) => {
      slept += ms;
      clock.advance(ms);
    });
  });

  it('a lease is the provider timeout plus the margin', () => {
    expect(claims.leaseOf(10_000)).toBe(10_000 + CLAIM_LEASE_MARGIN_MS);
  });

  it('the first pusher claims at once; a second, racing, waits for the first outcome and then takes the order as it finds it', async () => {
    const store = memoryStore();
    const first = await claims.claim(store, 'OR000001', 1_000, errors);
    expect(store.row.claim).toBe(first);
    expect(slept).toBe(0);
    // the first push is rejected upstream after 100 ms: its claim is released, the order still `created`
    store.onPoll = () => {
      if (slept >= 100) void claims.release(store, 'OR000001', first);
    };
    const second = await claims.claim(store, 'OR000001', 1_000, errors);
    expect(second).not.toBe(first);
    expect(store.row.claim).toBe(second);
    expect(slept).toBe(100);
  });

  it('a racing pusher that finds the order submitted after the wait gets the status it found', async () => {
    const store = memoryStore();
    await claims.claim(store, 'OR000001', 1_000, errors);
    store.onPoll = () => {
      if (slept >= 3 * CLAIM_POLL_MS) store.row = { status: 'submitted', claim: null, claimedAt: null };
    };
    await expect(claims.claim(store, 'OR000001', 1_000, errors)).rejects.toThrow('not created: submitted');
  });

  it('a claim whose lease ran out is taken over; until then it is live', async () => {
    const store = memoryStore();
    const stale = await claims.claim(store, 'OR000001', 1_000, errors);
    clock.advance(999);
    expect(claims.isLive(store.row, 1_000)).toBe(true);
    clock.advance(1);
    expect(claims.isLive(store.row, 1_000)).toBe(false);
    clock.advance(1);
    const fresh = await claims.claim(store, 'OR000001', 1_000, errors);
    expect(fresh).not.toBe(stale);
    expect(slept).toBe(0);
  });

  it('a wait gives up once its patience is spent, even on a clock that stands still', async () => {
    const store = memoryStore();
    await claims.claim(store, 'OR000001', 60_000, errors);
    const still = new PushClaims(clock, async (ms) => {
      slept += ms;
    });
    await expect(still.waitForOutcome(store, 'OR000001', 60_000, new Patience(10 * CLAIM_POLL_MS), errors.tooLong)).rejects.toThrow('push in progress');
    expect(slept).toBe(10 * CLAIM_POLL_MS);
  });

  it('release clears only its own claim', async () => {
    const store = memoryStore();
    const mine = await claims.claim(store, 'OR000001', 1_000, errors);
    await claims.release(store, 'OR000001', 'someone-else');
    expect(store.row.claim).toBe(mine);
    await claims.release(store, 'OR000001', mine);
    expect(store.row.claim).toBeNull();
  });
});
