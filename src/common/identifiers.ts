import { ISO_3166_ALPHA2, ISO_4217 } from './iso-codes';

/*
 * Identifiers a standard defines, checked as the standard says. Each check takes the value as
 * stored (upper case, no spaces: callers normalise) and answers what is wrong in words naming the
 * standard, or null. The check digits are what catches a mistyped character; a well-formed
 * identifier is not thereby known to be registered to anyone.
 */

/**
 * ISO 7064 MOD 97-10 remainder of a string of digits and upper-case letters, letters read as
 * 10..35 (A = 10): a valid LEI or IBAN (rearranged) leaves 1. Folded digit by digit, so no big
 * numbers are needed.
 */
export function mod97(value: string): number {
  let remainder = 0;
  for (const ch of value) {
    const digits = ch >= 'A' && ch <= 'Z' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return remainder;
}

/** LEI, ISO 17442: 18 letters or digits and 2 check digits, MOD 97-10 leaves 1. */
export function leiProblem(lei: string): string | null {
  if (!/^[A-Z0-9]{18}[0-9]{2}$/.test(lei)) return 'must be an LEI of 18 letters or digits and 2 check digits (ISO 17442)';
  return mod97(lei) === 1 ? null : 'check digits do not match (ISO 17442)';
}

/**
 * ISIN, ISO 6166: a 2-letter prefix (a country code, or XS/EU… for international issues), 9
 * letters or digits, 1 check digit: letters become 10..35, and the Luhn sum of the digits so
 * written is a multiple of 10.
 */
export function isinProblem(isin: string): string | null {
  if (!/^[A-Z]{2}[A-Z0-9]{9}[0-9]$/.test(isin)) return 'must be an ISIN of 2 letters, 9 letters or digits and 1 check digit (ISO 6166)';
  const digits = [...isin].map((ch) => (ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch)).join('');
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    let d = Number(digits[i]);
    if (double) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0 ? null : 'check digit does not match (ISO 6166)';
}

/** IBAN, ISO 13616: a country code, 2 check digits, up to 30 letters or digits; MOD 97-10 of the rearranged IBAN leaves 1. */
export function ibanProblem(iban: string): string | null {
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(iban)) return 'must be an IBAN: a country code, 2 check digits and the account (ISO 13616)';
  if (!ISO_3166_ALPHA2.has(iban.slice(0, 2))) return `must be an IBAN: ${iban.slice(0, 2)} is not a country code (ISO 13616)`;
  return mod97(iban.slice(4) + iban.slice(0, 4)) === 1 ? null : 'check digits do not match (ISO 13616)';
}

/** BIC, ISO 9362: 4 letters (institution), a country code, 2 letters or digits (location), an optional 3-character branch. */
export function bicProblem(bic: string): string | null {
  if (!/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic)) return 'must be a BIC of 8 or 11 letters or digits (ISO 9362)';
  return ISO_3166_ALPHA2.has(bic.slice(4, 6)) ? null : `must be a BIC: ${bic.slice(4, 6)} is not a country code (ISO 9362)`;
}

/** A country, ISO 3166-1 alpha-2 (`LU`). */
export function countryProblem(code: string): string | null {
  return ISO_3166_ALPHA2.has(code) ? null : 'must be a country code of two letters (ISO 3166-1 alpha-2)';
}

/** A currency, ISO 4217 (`EUR`). */
export function currencyProblem(code: string): string | null {
  return ISO_4217.has(code) ? null : 'must be a currency code (ISO 4217)';
}
