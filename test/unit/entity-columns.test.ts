import { BigIntType, MikroORM, ReferenceKind } from '@mikro-orm/postgresql';
import { ormOptions } from '../../src/boot/orm';
import { systemClock } from '../../src/common/clock';

/**
 * Every entity declares its bigint columns (ids, positions, block numbers, nonces) as strings; the
 * mapping must hand them over as strings too. MikroORM infers the mode from the emitted design
 * type, which is `Object` for `Opt<string>`, so without `bigintColumn()` a property the compiler
 * calls a string held a JS bigint (a GraphQL ID refused it, JSON.stringify threw on it).
 */
describe('Entity columns', () => {
  let orm: MikroORM;
  beforeAll(async () => {
    orm = await MikroORM.init({ ...ormOptions(systemClock), clientUrl: 'postgres://nobody@127.0.0.1:1/none', connect: false });
  });
  afterAll(() => orm.close());

  it('reads every bigint column of every entity as a decimal string', () => {
    const bigintColumns: string[] = [];
    const notStrings: string[] = [];
    for (const meta of Object.values(orm.getMetadata().getAll())) {
      for (const prop of Object.values(meta.properties)) {
        if (prop.kind !== ReferenceKind.SCALAR || !(prop.customType instanceof BigIntType)) continue;
        bigintColumns.push(`${meta.className}.${prop.name}`);
        if (prop.customType.mode !== 'string' || prop.customType.convertToJSValue('9007199254740993') !== '9007199254740993')
          notStrings.push(`${meta.className}.${prop.name} (${prop.customType.mode ?? 'bigint'})`);
      }
    }
    expect(bigintColumns).toEqual(
      expect.arrayContaining(['OrderStatusEntry.id', 'DomainEvent.position', 'ChainMovement.id', 'ChainTransaction.nonce', 'HoldingLot.id']),
    );
    expect(notStrings).toEqual([]);
  });
});
