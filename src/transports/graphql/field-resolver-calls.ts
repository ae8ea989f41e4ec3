import { isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { getMetadataStorage, type ContainerType } from 'type-graphql';

/**
 * The one instance of each resolver class, for type-graphql (buildSchemaSync's `container`) and
 * for the direct calls below alike. Resolver classes take nothing at construction, as with
 * type-graphql's default container.
 */
export class ResolverInstances implements ContainerType {
  private readonly instances = new Map<object, object>();

  get(someClass: object): object {
    let instance = this.instances.get(someClass);
    if (instance === undefined) this.instances.set(someClass, (instance = new (someClass as new () => object)()));
    return instance;
  }
}

type Metadata = ReturnType<typeof getMetadataStorage>;
type FieldResolverMetadata = Metadata['fieldResolvers'][number];
type Param = NonNullable<FieldResolverMetadata['params']>[number];
/** A root's declared class, for `instanceof`. */
type Class = abstract new (...args: never[]) => unknown;
type Read = (root: unknown, ctx: unknown, info: unknown) => unknown;

/**
 * The fields of type-graphql's object types as graphql-jit compiles best, decided once per
 * process. type-graphql gives every plain `@Field` a resolver that reads the property through
 * its (empty) middleware chain: graphql-jit then calls it, with its resolve info, for every field
 * of every record (a page of 100 orders: thousands of calls), where without a resolver it reads
 * the property inline. And its `@FieldResolver` wrapper, on every call, asks the container for
 * the resolver's instance, sorts and maps the parameter list and runs the same empty chain. With
 * no middleware, no auth checker and no validation (gatewaySchema's build) both plans are the
 * same on every call, so they are made here: a plain field read as the default resolver reads it,
 * a field resolver's method called directly. Fields with middleware or roles, methods that take
 * arguments or custom parameters, and a root that type-graphql would convert to its class
 * (anything but null or an instance of it) keep type-graphql's resolver, which does exactly what
 * it always did.
 */
export function callFieldResolversDirectly(schema: GraphQLSchema, resolvers: readonly object[], container: ResolverInstances): GraphQLSchema {
  const storage = getMetadataStorage();
  for (const type of Object.values(schema.getTypeMap())) {
    const objectType = isObjectType(type) ? storage.objectTypes.find((o) => o.name === type.name) : undefined;
    const superObjectType = (cls: object) => storage.objectTypes.find((o) => o.target === Object.getPrototypeOf(cls));
    if (!isObjectType(type) || !objectType) continue;
    const fields = type.getFields();
    const seen = new Set<string>();
    // A class's own fields, then its object-type superclasses' (type-graphql copies those onto the subtype).
    for (let declaring: typeof objectType | undefined = objectType; declaring; declaring = superObjectType(declaring.target)) {
      for (const field of declaring.fields ?? []) {
        if (seen.has(field.schemaName)) continue;
        seen.add(field.schemaName);
        const target = fields[field.schemaName];
        if (!target?.resolve) continue;
        // The pairing type-graphql's schema generator makes (schema/schema-generator.js).
        const meta = storage.fieldResolvers.find(
          (it) => (it.kind === 'internal' || resolvers.includes(it.target)) && it.getObjectType?.() === field.target && it.methodName === field.name,
        );
        if (!meta) {
          if (field.middlewares?.length || field.roles) continue;
          const name = field.name;
          // Read as graphql-jit (inline) and graphql-js (defaultFieldResolver) read a field they resolve themselves.
          target.resolve = name === field.schemaName ? undefined : (root: Record<string, unknown>) => root[name];
          continue;
        }
        if (meta.kind !== 'external') continue;
        const direct = directCall(meta, container, target.resolve);
        if (direct) target.resolve = direct;
      }
    }
  }
  return schema;
}

function directCall(
  meta: FieldResolverMetadata,
  container: ResolverInstances,
  wrapped: GraphQLFieldResolver<unknown, unknown>,
): GraphQLFieldResolver<unknown, unknown> | null {
  if (meta.middlewares?.length || meta.roles) return null;
  const params = [...(meta.params ?? [])].sort((a, b) => a.index - b.index);
  const reads: Read[] = [];
  let rootType: Class | null = null;
  for (const p of params) {
    const read = paramRead(p);
    if (!read) return null;
    if (p.kind === 'root' && p.getType) {
      // A root read through a property would be converted apart: leave such a method to type-graphql.
      if (p.propertyName || rootType) return null;
      const declared: unknown = p.getType();
      if (typeof declared !== 'function') return null;
      rootType = declared as Class;
    }
    reads.push(read);
  }
  const instance = container.get(meta.target) as Record<string, unknown>;
  const method = instance[meta.methodName];
  if (typeof method !== 'function') return null;
  const type = rootType;
  return (root, args, ctx, info) => {
    if (type && root != null && !(root instanceof type)) return wrapped(root, args, ctx, info);
    return (method as (...args: unknown[]) => unknown).apply(
      instance,
      reads.map((read) => read(root, ctx, info)),
    );
  };
}

function paramRead(p: Param): Read | null {
  switch (p.kind) {
    case 'root':
      return p.propertyName ? (root) => (root as Record<string, unknown>)[p.propertyName!] : (root) => root;
    case 'context':
      return p.propertyName ? (_root, ctx) => (ctx as Record<string, unknown>)[p.propertyName!] : (_root, ctx) => ctx;
    case 'info':
      return (_root, _ctx, info) => info;
    default:
      return null;
  }
}
