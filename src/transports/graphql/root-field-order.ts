import { GraphQLObjectType, GraphQLSchema } from 'graphql';
import { getMetadataStorage } from 'type-graphql';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- type-graphql's metadata names resolver classes as Function
type ResolverClass = Function;

/**
 * type-graphql lists root fields in the order their decorators ran, that is the order resolver
 * files happened to be loaded; behind the modules' front doors (src/modules/<m>/index.ts) that
 * depends on which file imports which door first. The schema lists them instead in the order of
 * `resolvers` (the modules in their declared order, each module's resolvers as its manifest lists
 * them, then the transport's), each resolver's fields in the order they are written.
 */
export function rootFieldsInResolverOrder(schema: GraphQLSchema, resolvers: readonly ResolverClass[]): GraphQLSchema {
  const storage = getMetadataStorage();
  const owner = (target: ResolverClass) => resolvers.findIndex((r) => r === target || (r.prototype as object) instanceof target);
  const rankOf = (handlers: readonly { schemaName: string; target: ResolverClass }[]) => {
    const rank = new Map<string, number>();
    handlers.forEach((h, i) => rank.set(h.schemaName, owner(h.target) * handlers.length + i));
    return rank;
  };
  const reorder = (type: GraphQLObjectType | null | undefined, rank: Map<string, number>) => {
    if (!type) return type;
    const config = type.toConfig();
    const names = Object.keys(config.fields).sort((a, b) => (rank.get(a) ?? 0) - (rank.get(b) ?? 0));
    return new GraphQLObjectType({ ...config, fields: Object.fromEntries(names.map((n) => [n, config.fields[n]])) });
  };
  const config = schema.toConfig();
  const query = reorder(config.query, rankOf(storage.queries));
  const mutation = reorder(config.mutation, rankOf(storage.mutations));
  const subscription = reorder(config.subscription, rankOf(storage.subscriptions));
  const swapped = new Map<unknown, GraphQLObjectType | null | undefined>([
    [config.query, query],
    [config.mutation, mutation],
    [config.subscription, subscription],
  ]);
  return new GraphQLSchema({ ...config, query, mutation, subscription, types: config.types.map((t) => swapped.get(t) ?? t) });
}
