import { ISO_3166_ALPHA2 } from '../../src/common/iso-codes';
import { ISO_3166_NUMERIC } from '../../src/common/iso-3166-numeric';

describe('ISO 3166-1 country codes', () => {
  it('every alpha-2 code the gateway accepts has its numeric code, and no other', () => {
    expect(Object.keys(ISO_3166_NUMERIC).sort()).toEqual([...ISO_3166_ALPHA2].sort());
    // a few that a registry on chain must read exactly (ISO 3166-1)
    expect([ISO_3166_NUMERIC.LU, ISO_3166_NUMERIC.US, ISO_3166_NUMERIC.DE, ISO_3166_NUMERIC.FR, ISO_3166_NUMERIC.GB]).toEqual([442, 840, 276, 250, 826]);
    expect(new Set(Object.values(ISO_3166_NUMERIC)).size).toBe(ISO_3166_ALPHA2.size);
  });
});
