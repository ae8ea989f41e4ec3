import { readFileSync } from 'node:fs';
import { SCHEMA_FILE, schemaSdl } from '../../scripts/emit-schema';

describe('schema/schema.graphql', () => {
  it('is the SDL the code builds (run `npm run codegen` after changing the schema)', () => {
    // given the checked-in SDL and the one the resolvers build
    const checkedIn = readFileSync(SCHEMA_FILE, 'utf8');
    // then they are the same, byte for byte
    expect(schemaSdl()).toBe(checkedIn);
  });
});
