import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
} from 'graphql';
import { gatewaySchema } from '../../src/transports/graphql/schema';
import type { World } from './two-tenant-world';

/* A call of any root field of the schema, its arguments filled by name from a world's values. */
const SCALAR_SAMPLES: Record<string, unknown> = {
  String: 'x',
  ID: 'x',
  Int: 1,
  Float: 1,
  Boolean: true,
  Decimal: '1',
  EpochMs: 1_700_000_000_000,
  JSONObject: {},
  JSON: {},
};

export function sampleInput(type: GraphQLInputType, name: string, values: Record<string, unknown>, depth = 0): unknown {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return [sampleInput(inner.ofType, name, values, depth)];
  if (isInputObjectType(inner)) {
    if (depth > 3) return {};
    const out: Record<string, unknown> = {};
    for (const f of Object.values(inner.getFields())) out[f.name] = sampleInput(f.type, f.name, values, depth + 1);
    return out;
  }
  if (isEnumType(inner)) return inner.getValues()[0].value;
  if (name in values) return values[name];
  return isScalarType(inner) ? (SCALAR_SAMPLES[inner.name] ?? 'x') : 'x';
}

/** Every scalar, and every object field without required arguments, a few levels down. */
export function selection(type: GraphQLObjectType, depth: number): string {
  const parts = ['__typename'];
  for (const f of Object.values(type.getFields())) {
    if (f.args.some((a) => isNonNullType(a.type))) continue;
    const named = getNamedType(f.type);
    if (isObjectType(named)) {
      if (depth > 0) parts.push(`${f.name} { ${selection(named, depth - 1)} }`);
    } else parts.push(f.name);
  }
  return parts.join(' ');
}

export function callOf(kind: 'query' | 'mutation' | 'subscription', field: GraphQLField<unknown, unknown>, world: World, aliasForm: boolean) {
  const values = world.values(aliasForm);
  const named = getNamedType(field.type);
  const variables: Record<string, unknown> = {};
  const decl: string[] = [];
  const args: string[] = [];
  field.args.forEach((arg: GraphQLArgument) => {
    const value = arg.name === 'id' ? (world.idFor(named.name, aliasForm) ?? 'x') : sampleInput(arg.type, arg.name, values);
    variables[arg.name] = value;
    decl.push(`$${arg.name}: ${arg.type.toString()}`);
    args.push(`${arg.name}: $${arg.name}`);
  });
  const select = isObjectType(named) ? ` { ${selection(named, 3)} }` : '';
  const query = `${kind}${decl.length ? `(${decl.join(', ')})` : ''} { ${field.name}${args.length ? `(${args.join(', ')})` : ''}${select} }`;
  return { query, variables };
}

export const rootFields = (kind: 'Query' | 'Mutation' | 'Subscription') => {
  const type = gatewaySchema().getType(kind) as GraphQLObjectType;
  return Object.values(type.getFields()).map((f) => ({ kind, field: f, key: `${kind}.${f.name}` }));
};

/** Errors of a document refused before it ran (GraphQL validation, document limits). */
export const rejected = (errors: { message: string; extensions?: { code?: string } }[] | undefined) =>
  (errors ?? []).filter((e) => e.extensions?.code === 'GRAPHQL_VALIDATION_FAILED' || e.extensions?.code === 'GRAPHQL_PARSE_FAILED').map((e) => e.message);

export function leaked(world: World, data: unknown): string[] {
  const text = JSON.stringify(data ?? null).toLowerCase();
  return world.secrets.filter((s) => text.includes(s.toLowerCase()));
}
