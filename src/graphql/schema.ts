import 'reflect-metadata';
import type { GraphQLSchema } from 'graphql';
import { buildSchemaSync } from 'type-graphql';
import { RESOLVERS } from './resolvers';

let schema: GraphQLSchema | null = null;

/** The schema, built once per process (type-graphql keeps global metadata). */
export function gatewaySchema(): GraphQLSchema {
  schema ??= buildSchemaSync({ resolvers: RESOLVERS, validate: false });
  return schema;
}
