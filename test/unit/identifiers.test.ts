import { bicProblem, countryProblem, currencyProblem, ibanProblem, isinProblem, leiProblem, mod97 } from '../../src/common/identifiers';

/*
 * Published examples: LEIs from GLEIF's public register, ISINs from ISO 6166 / issuers' documents,
 * IBANs from the ECBS/SWIFT IBAN registry examples, BICs from SWIFT's published codes.
 */
describe('identifiers a standard defines', () => {
  it('LEI (ISO 17442): MOD 97-10 check digits', () => {
    // given the LEIs of GLEIF itself, of Apple Inc. and the demo issuer's
    for (const lei of ['506700GE1G29325QX363', 'HWUPKR0MPOU8FGXBT394', '5493001KJTIIGC8Y1R12']) expect(leiProblem(lei)).toBeNull();
    // then a changed check digit, the made-up LEI and a wrong length are refused
    expect(leiProblem('506700GE1G29325QX364')).toBe('check digits do not match (ISO 17442)');
    expect(leiProblem('ABCDEFGHIJKLMNOPQR12')).toBe('check digits do not match (ISO 17442)');
    expect(leiProblem('5493001KJTIIGC8Y1R1')).toBe('must be an LEI of 18 letters or digits and 2 check digits (ISO 17442)');
  });

  it('ISIN (ISO 6166): the Luhn check digit over letters written as numbers', () => {
    for (const isin of ['US0378331005', 'AU0000XVGZA3', 'GB0002634946', 'DE000BAY0017', 'LU2900000030']) expect(isinProblem(isin)).toBeNull();
    expect(isinProblem('US0378331006')).toBe('check digit does not match (ISO 6166)');
    expect(isinProblem('LU2900000037')).toBe('check digit does not match (ISO 6166)');
    expect(isinProblem('nope')).toBe('must be an ISIN of 2 letters, 9 letters or digits and 1 check digit (ISO 6166)');
  });

  it('IBAN (ISO 13616): MOD 97-10 of the rearranged number leaves 1', () => {
    for (const iban of ['GB82WEST12345698765432', 'DE89370400440532013000', 'LU280019400644750000', 'FR1420041010050500013M02606', 'NL91ABNA0417164300'])
      expect(ibanProblem(iban)).toBeNull();
    expect(mod97('WEST12345698765432GB82')).toBe(1);
    expect(ibanProblem('GB82WEST12345698765433')).toBe('check digits do not match (ISO 13616)');
    expect(ibanProblem('LU000')).toBe('must be an IBAN: a country code, 2 check digits and the account (ISO 13616)');
    expect(ibanProblem('ZZ82WEST12345698765432')).toBe('must be an IBAN: ZZ is not a country code (ISO 13616)');
  });

  it('BIC (ISO 9362): institution, country, location and an optional branch', () => {
    for (const bic of ['DEUTDEFF', 'DEUTDEFF500', 'BLUXLULL', 'NEDSZAJJXXX']) expect(bicProblem(bic)).toBeNull();
    expect(bicProblem('BAD')).toBe('must be a BIC of 8 or 11 letters or digits (ISO 9362)');
    expect(bicProblem('DEUT12FF')).toBe('must be a BIC of 8 or 11 letters or digits (ISO 9362)');
    expect(bicProblem('DEUTZZFF')).toBe('must be a BIC: ZZ is not a country code (ISO 9362)');
  });

  it('ISO 3166-1 alpha-2 countries and ISO 4217 currencies are read from their lists', () => {
    for (const c of ['LU', 'DE', 'US', 'GB', 'CH', 'KY']) expect(countryProblem(c)).toBeNull();
    for (const c of ['UK', 'EU', 'ZZ', 'Lu', 'LUX']) expect(countryProblem(c)).toBe('must be a country code of two letters (ISO 3166-1 alpha-2)');
    for (const c of ['EUR', 'USD', 'CHF', 'JPY', 'XAU']) expect(currencyProblem(c)).toBeNull();
    for (const c of ['EUX', 'ABC', 'DEM']) expect(currencyProblem(c)).toBe('must be a currency code (ISO 4217)');
  });
});
