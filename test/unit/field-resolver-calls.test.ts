import 'reflect-metadata';
import { isObjectType, type GraphQLObjectType, type GraphQLResolveInfo } from 'graphql';
import { gatewaySchema } from '../../src/transports/graphql/schema';
import { Distributor } from '../../src/modules/distributor/distributor.entity';

/** The schema's fields as planned at build (src/transports/graphql/field-resolver-calls.ts). */
describe('GraphQL fields as planned at build', () => {
  const schema = gatewaySchema();
  const fields = (name: string) => (schema.getType(name) as GraphQLObjectType).getFields();

  it('reads a plain field of a record without a resolver, own or inherited, as graphql-jit reads it inline', () => {
    expect(isObjectType(schema.getType('Order'))).toBe(true);
    expect(fields('Order').status.resolve).toBeUndefined();
    expect(fields('Order').amount.resolve).toBeUndefined();
    expect(fields('Order').createdAt.resolve).toBeUndefined();
  });

  it('calls a field resolver directly on a record of its class, and through type-graphql on anything else, with the same answer', () => {
    const resolve = fields('Distributor').partnerId.resolve!;
    const record = Object.assign(Object.create(Distributor.prototype) as Distributor, { id: 'DT000007' });
    const info = {} as GraphQLResolveInfo;
    const direct = resolve(record, {}, {}, info) as string;
    expect(direct).toMatch(/^PT\d+$/);
    expect(resolve({ id: 'DT000007' }, {}, {}, info)).toBe(direct);
  });
});
