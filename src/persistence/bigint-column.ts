import { BigIntType } from '@mikro-orm/core';

/**
 * A PostgreSQL `bigint` column read as a decimal string, which is how every entity declares it.
 *
 * MikroORM picks a BigIntType's mode from the property's emitted design type, and `Opt<string>`
 * (an intersection) is emitted as `Object`: `type: 'bigint'` then gave JS bigints to properties the
 * compiler believed were strings (a GraphQL `ID` refuses them, `JSON.stringify` throws on them).
 * The mode is said here instead of inferred. A fresh instance per property: discovery binds the
 * type object to the property it describes.
 */
export function bigintColumn(): BigIntType<'string'> {
  return new BigIntType('string');
}
