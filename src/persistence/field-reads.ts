import type { EntityManager } from '@mikro-orm/postgresql';
import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import { isColumnField, projection, type EntityRecord, type Projected, type Projection } from './read-record';

type Entity = abstract new (...args: never[]) => object;

/** A field a record of `T` holds (what a projection can name). */
type FieldOf<T> = keyof EntityRecord<T> & string;

/** Per entity class: the fields its resolvers compute, and the entity's fields each reads. */
const declared = new WeakMap<Entity, Map<string, readonly string[]>>();

/**
 * Declares what a field resolver of `type`'s GraphQL type reads of the entity, so a list asked
 * only for some fields reads only their columns (`selectionProjection`). Beside the resolver, so
 * the two change together. The compiler holds the resolver to it: its root parameter must accept
 * the projection onto `props` (`Projected<T, K>`), so reading any other field, or taking the
 * managed entity, does not compile. At run time a projected record also throws on an undeclared
 * field (see `projection`), and test/graphql/order-projection.test.ts asks for every field of
 * Order alone.
 */
export function Reads<T extends object, K extends FieldOf<T>>(type: abstract new (...args: never[]) => T, ...props: K[]) {
  return <M extends (root: Projected<T, K>, ...rest: never[]) => unknown>(
    _target: object,
    field: string | symbol,
    _descriptor: TypedPropertyDescriptor<M>,
  ): void => {
    let fields = declared.get(type);
    if (!fields) declared.set(type, (fields = new Map<string, readonly string[]>()));
    fields.set(String(field), props);
  };
}

/** Per entity class: what every read of it needs, whatever is selected. */
const alwaysRead = new WeakMap<Entity, readonly string[]>();

/**
 * Declares what is read of every record of `type`, whatever a query selects: what the trust
 * boundary checks the record by (its owner, src/transports/graphql/visibility.ts), declared beside that rule.
 */
export function ReadAlways<T extends object>(type: abstract new (...args: never[]) => T, ...props: FieldOf<T>[]): void {
  alwaysRead.set(type, props);
}

/**
 * The projection of `type` a resolver returning a list of it needs: the columns of the fields
 * selected under `path` (e.g. `['items']` of a page), with `always` (what the list itself uses,
 * such as its cursor's keys) and what `ReadAlways` declares. Null, meaning every column, when a
 * selected field is neither an entity field nor declared with `@Reads`.
 * A record read with it holds at least `always` (`K`), and the type says no more: what else it
 * holds depends on the query, so only field resolvers (through `@Reads`) may read it.
 */
export function selectionProjection<T extends object, K extends FieldOf<T>>(
  em: EntityManager,
  type: abstract new (...args: never[]) => T,
  info: GraphQLResolveInfo,
  path: string[],
  always: K[],
): Projection<T, K> | null {
  const node = info.fieldNodes[0];
  let byType = cached.get(node);
  if (!byType) cached.set(node, (byType = new Map<Entity, Projection<never, never> | null>()));
  if (byType.has(type)) return byType.get(type) as Projection<T, K> | null;
  const made = project(em, type, selectedFields(info, path), always);
  byType.set(type, made);
  return made;
}

/** Per field of a parsed document (kept while the document is): its projection per type. */
const cached = new WeakMap<FieldNode, Map<Entity, Projection<never, never> | null>>();

function project(em: EntityManager, type: Entity, fields: Set<string>, always: string[]): Projection<never, never> | null {
  const props = new Set([...always, ...(alwaysRead.get(type) ?? [])]);
  const resolved = declared.get(type);
  for (const field of fields) {
    if (field === '__typename') continue;
    const reads = resolved?.get(field);
    if (reads) reads.forEach((p) => props.add(p));
    else if (isColumnField(em, type, field)) props.add(field);
    else return null;
  }
  return projection(em, type, props as Set<never>);
}

/**
 * The names of the fields selected at `path` below the resolved field, through fragments.
 * Directives and type conditions are not applied: a field that may be skipped is still read,
 * which costs a column, never a wrong answer.
 */
function selectedFields(info: GraphQLResolveInfo, path: string[]): Set<string> {
  let sets: SelectionSetNode[] = info.fieldNodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : []));
  for (const step of path)
    sets = fieldsOf(info, sets)
      .filter((f) => f.name.value === step)
      .flatMap((f) => (f.selectionSet ? [f.selectionSet] : []));
  return new Set(fieldsOf(info, sets).map((f) => f.name.value));
}

function fieldsOf(info: GraphQLResolveInfo, sets: SelectionSetNode[]): FieldNode[] {
  const out: FieldNode[] = [];
  const walk = (set: SelectionSetNode) => {
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) out.push(s);
      else if (s.kind === Kind.INLINE_FRAGMENT) walk(s.selectionSet);
      else {
        const fragment = info.fragments[s.name.value];
        if (fragment) walk(fragment.selectionSet);
      }
    }
  };
  sets.forEach(walk);
  return out;
}
