import { Dec, decimalNumber, decimalString } from '../../src/common/money';

/** Every decimal the API answers goes through decimalString: its fast path must be Decimal's rule. */
describe('decimal strings', () => {
  const edges = [
    '0',
    '-0',
    '0.0',
    '-0.000',
    '0.000000000000000000',
    '1',
    '-1',
    '10',
    '100.000',
    '-100.0100',
    '1.5',
    '0.5',
    '-0.5',
    '0.000000000000000001',
    '12345678901234567890.123456789012345678',
    '99999999999999999999.999999999999999999',
    '1000.000000000000000000',
    '00.5',
    '007',
    '-00',
    '1e5',
    '1.5e-7',
    '-2E+3',
    '.5',
    '5.',
    '+5',
    ' 5',
    '5 ',
    '1_000',
    'NaN',
    'Infinity',
  ];

  it('is canonical (no exponent, no trailing zeros past the point) exactly as Decimal writes it, edge cases included', () => {
    for (const value of edges) {
      let expected: string | Error;
      try {
        expected = new Dec(value).toFixed();
      } catch (err) {
        expected = err as Error;
      }
      if (expected instanceof Error) expect(() => decimalString(value)).toThrow();
      else expect([value, decimalString(value)]).toEqual([value, expected]);
    }
  });

  it('agrees with Decimal on 20,000 random numeric(38,18) literals, as PostgreSQL returns them', () => {
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const digits = (n: number) => Array.from({ length: n }, () => String(rand(10))).join('');
    for (let i = 0; i < 20_000; i++) {
      const int = String(BigInt(digits(1 + rand(20))));
      const zeros = '0'.repeat(rand(6));
      const value = `${rand(3) === 0 ? '-' : ''}${int}${rand(4) === 0 ? '' : `.${digits(rand(18))}${zeros}`}`;
      expect([value, decimalString(value)]).toEqual([value, new Dec(value).toFixed()]);
      expect([value, decimalNumber(value)]).toEqual([value, new Dec(value).toNumber()]);
    }
  });

  it('as a number where the description types a number, is the double Decimal gives, edge cases included', () => {
    for (const value of edges) {
      let expected: number | Error;
      try {
        expected = new Dec(value).toNumber();
      } catch (err) {
        expected = err as Error;
      }
      if (expected instanceof Error) expect(() => decimalNumber(value)).toThrow();
      else expect([value, Object.is(decimalNumber(value), expected)]).toEqual([value, true]);
    }
  });

  it('takes numbers and Decimals as before', () => {
    expect(decimalString(1.25)).toBe('1.25');
    expect(decimalString(new Dec('2.500'))).toBe('2.5');
  });
});
