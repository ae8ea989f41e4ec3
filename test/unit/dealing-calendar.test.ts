import { type CalendarRules, dealingDates, DEFAULT_CALENDAR } from '../../src/modules/dealing/dealing-calendar';
import { assertUnlocked, unlockedBalance } from '../../src/modules/dealing/lock-up';

const calendar = (over: Partial<CalendarRules> = {}): CalendarRules => ({ ...DEFAULT_CALENDAR, ...over });
const at = (iso: string) => new Date(iso);
const dates = (cal: CalendarRules, placed: string, freq = 1, cutOffDays = 0) => {
  const d = dealingDates(cal, at(placed), freq, cutOffDays);
  return { dealingDate: d.dealingDate, cutOffAt: d.cutOffAt.toISOString(), expectedSettlementDate: d.expectedSettlementDate };
};

describe('dealing dates', () => {
  it('without a calendar: every weekday in UTC, the cut-off at the end of the day, settlement one business day later', () => {
    expect(dates(DEFAULT_CALENDAR, '2026-11-18T23:59:59.999Z')).toEqual({
      dealingDate: '2026-11-18',
      cutOffAt: '2026-11-19T00:00:00.000Z',
      expectedSettlementDate: '2026-11-19',
    });
    // Friday's order settles on Monday; Saturday's is dealt on Monday.
    expect(dates(DEFAULT_CALENDAR, '2026-11-20T10:00:00Z')).toMatchObject({ dealingDate: '2026-11-20', expectedSettlementDate: '2026-11-23' });
    expect(dates(DEFAULT_CALENDAR, '2026-11-21T10:00:00Z')).toMatchObject({ dealingDate: '2026-11-23', cutOffAt: '2026-11-24T00:00:00.000Z' });
  });

  it('an order at or after the cut-off goes to the next dealing day; a Friday-evening order to Monday', () => {
    const lux = calendar({ timeZone: 'Europe/Luxembourg', cutOffTime: '12:00' });
    expect(dates(lux, '2026-11-18T10:59:59.999Z')).toEqual({
      dealingDate: '2026-11-18',
      cutOffAt: '2026-11-18T11:00:00.000Z',
      expectedSettlementDate: '2026-11-19',
    });
    expect(dates(lux, '2026-11-18T11:00:00.000Z')).toEqual({
      dealingDate: '2026-11-19',
      cutOffAt: '2026-11-19T11:00:00.000Z',
      expectedSettlementDate: '2026-11-20',
    });
    expect(dates(lux, '2026-11-20T18:00:00Z')).toEqual({
      dealingDate: '2026-11-23',
      cutOffAt: '2026-11-23T11:00:00.000Z',
      expectedSettlementDate: '2026-11-24',
    });
  });

  it('skips holidays for dealing and for settlement', () => {
    const ny = calendar({ timeZone: 'America/New_York', cutOffTime: '16:00', holidays: new Set(['2026-11-26', '2026-11-30']) });
    // Wednesday after the cut-off: Thursday is Thanksgiving, so Friday; it settles Tuesday (Monday is a holiday too).
    expect(dates(ny, '2026-11-25T22:00:00Z')).toEqual({
      dealingDate: '2026-11-27',
      cutOffAt: '2026-11-27T21:00:00.000Z',
      expectedSettlementDate: '2026-12-01',
    });
  });

  it('reads the cut-off in the zone across daylight-saving changes', () => {
    const ny = calendar({ timeZone: 'America/New_York', cutOffTime: '16:00' });
    // EDT (UTC-4) on Friday 30 October 2026, EST (UTC-5) from Sunday 1 November.
    expect(dates(ny, '2026-10-30T19:59:00Z')).toMatchObject({ dealingDate: '2026-10-30', cutOffAt: '2026-10-30T20:00:00.000Z' });
    expect(dates(ny, '2026-10-30T20:30:00Z')).toMatchObject({ dealingDate: '2026-11-02', cutOffAt: '2026-11-02T21:00:00.000Z' });
    const lux = calendar({ timeZone: 'Europe/Luxembourg', cutOffTime: '12:00' });
    // CET to CEST on Sunday 29 March 2026: Friday's cut-off is 11:00Z, Monday's 10:00Z.
    expect(dates(lux, '2026-03-27T12:00:00Z')).toMatchObject({ dealingDate: '2026-03-30', cutOffAt: '2026-03-30T10:00:00.000Z' });
    // The local date, not the UTC one: 23:30Z on Monday is already Tuesday in Tokyo.
    const tokyo = calendar({ timeZone: 'Asia/Tokyo', cutOffTime: '15:00' });
    expect(dates(tokyo, '2026-11-16T23:30:00Z')).toMatchObject({ dealingDate: '2026-11-17', cutOffAt: '2026-11-17T06:00:00.000Z' });
  });

  it('deals every N business days from the anchor with subFreq > 1', () => {
    // Anchor Monday 2026-11-16, every 3 business days: 16, 19, 24 (Mon 23 is the 5th), 27 …
    const cal = calendar({ anchorDate: '2026-11-16' });
    expect(dates(cal, '2026-11-17T09:00:00Z', 3).dealingDate).toBe('2026-11-19');
    expect(dates(cal, '2026-11-19T23:59:00Z', 3).dealingDate).toBe('2026-11-19');
    expect(dates(cal, '2026-11-20T09:00:00Z', 3).dealingDate).toBe('2026-11-24');
    // A holiday is not counted: with Tuesday 2026-11-17 a holiday the cycle is 16, 20, 25.
    const withHoliday = calendar({ anchorDate: '2026-11-16', holidays: new Set(['2026-11-17']) });
    expect(dates(withHoliday, '2026-11-17T09:00:00Z', 3).dealingDate).toBe('2026-11-20');
    expect(dates(withHoliday, '2026-11-21T09:00:00Z', 3).dealingDate).toBe('2026-11-25');
  });

  it('gives the worked example of docs/api.md (the demo USD class)', () => {
    const demo = calendar({ timeZone: 'America/New_York', cutOffTime: '16:00', holidays: new Set(['2026-11-26']) });
    expect(dates(demo, '2026-11-25T20:30:00Z')).toEqual({
      dealingDate: '2026-11-25',
      cutOffAt: new Date(1795640400000).toISOString(),
      expectedSettlementDate: '2026-11-27',
    });
    expect(dates(demo, '2026-11-25T21:00:00Z')).toEqual({
      dealingDate: '2026-11-27',
      cutOffAt: '2026-11-27T21:00:00.000Z',
      expectedSettlementDate: '2026-11-30',
    });
    expect(dates(demo, '2026-07-15T19:59:00Z')).toMatchObject({ dealingDate: '2026-07-15', cutOffAt: '2026-07-15T20:00:00.000Z' });
  });

  it('puts the cut-off cutOffTime_days business days from the dealing day', () => {
    const lux = calendar({ timeZone: 'Europe/Luxembourg', cutOffTime: '12:00' });
    // Cut-off the business day before: Monday's dealing closes Friday noon.
    expect(dates(lux, '2026-11-20T10:00:00Z', 1, -1)).toMatchObject({ dealingDate: '2026-11-23', cutOffAt: '2026-11-20T11:00:00.000Z' });
    expect(dates(lux, '2026-11-20T12:00:00Z', 1, -1)).toMatchObject({ dealingDate: '2026-11-24', cutOffAt: '2026-11-23T11:00:00.000Z' });
  });
});

describe('lock-up', () => {
  const lots = [
    { remaining: '100', settledAt: at('2026-10-01T12:00:00Z') },
    { remaining: '50', settledAt: at('2026-11-10T12:00:00Z') },
  ];
  const lockUp = { days: 30, timeZone: 'UTC' };

  it('counts only lots settled at least lockup days ago; tokens no lot accounts for are unlocked', () => {
    expect(unlockedBalance('150', lots, lockUp, at('2026-11-20T00:00:00Z')).unlocked.toFixed()).toBe('100');
    expect(unlockedBalance('160', lots, lockUp, at('2026-11-20T00:00:00Z')).unlocked.toFixed()).toBe('110');
    expect(unlockedBalance('150', lots, lockUp, at('2026-12-10T12:00:00Z')).unlocked.toFixed()).toBe('150');
  });

  it('refuses more than the unlocked tokens left after open redemptions, naming them and the unlock date', () => {
    const now = at('2026-11-20T00:00:00Z');
    expect(() => assertUnlocked('100', '0', '150', lots, lockUp, now)).not.toThrow();
    expect(() => assertUnlocked('101', '0', '150', lots, lockUp, now)).toThrow(
      'tokenCount exceeds unlocked holdings: 100 unlocked, the rest unlocks on 2026-12-10',
    );
    expect(() => assertUnlocked('30', '80', '150', lots, lockUp, now)).toThrow(
      'tokenCount exceeds unlocked holdings: 20 unlocked, the rest unlocks on 2026-12-10',
    );
    expect(() => assertUnlocked('150', '0', '150', lots, { days: 0, timeZone: 'UTC' }, now)).not.toThrow();
  });
});
