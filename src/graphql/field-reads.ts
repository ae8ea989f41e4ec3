import type { EntityManager } from '@mikro-orm/postgresql';
import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import { isColumnField, projection, type Projection } from '../common/read-record';

type Entity = abstract new (...args: never[]) => object;

/** Per entity class: the fields its resolvers compute, and the entity's fields each reads. */
const declared = new WeakMap<Entity, Map<string, readonly string[]>>();

/**
 * Declares what a field resolver of `type`'s GraphQL type reads of the entity, so a list asked
 * only for some fields reads only their columns (`selectionProjection`). Beside the resolver, so
 * the two change together; a resolver that reads more than it declares fails loudly on the first
 * read of the missing field (see `projection`), and test/graphql/order-projection.test.ts asks
 * for every field of Order alone.
 */
export function Reads<T extends object>(type: abstract new (...args: never[]) => T, ...props: (keyof T & string)[]): MethodDecorator {
  return (_target, field) => {
    let fields = declared.get(type);
    if (!fields) declared.set(type, (fields = new Map()));
    fields.set(String(field), props);
  };
}

/** Per entity class: what every read of it needs, whatever is selected. */
const alwaysRead = new WeakMap<Entity, readonly string[]>();

/**
 * Declares what is read of every record of `type`, whatever a query selects: what the trust
 * boundary checks the record by (its owner, src/graphql/visibility.ts), declared beside that rule.
 */
export function ReadAlways<T extends object>(type: abstract new (...args: never[]) => T, ...props: (keyof T & string)[]): void {
  alwaysRead.set(type, props);
}

/**
 * The projection of `type` a resolver returning a list of it needs: the columns of the fields
 * selected under `path` (e.g. `['items']` of a page), with `always` (what the list itself uses,
 * such as its cursor's keys) and what `ReadAlways` declares. Null, meaning every column, when a selected field is neither an
 * entity field nor declared with `@Reads`.
 */
export function selectionProjection(em: EntityManager, type: Entity, info: GraphQLResolveInfo, path: string[], always: string[]): Projection | null {
  const node = info.fieldNodes[0];
  let byType = cached.get(node);
  if (!byType) cached.set(node, (byType = new Map()));
  if (byType.has(type)) return byType.get(type)!;
  const made = project(em, type, selectedFields(info, path), always);
  byType.set(type, made);
  return made;
}

/** Per field of a parsed document (kept while the document is): its projection per type. */
const cached = new WeakMap<FieldNode, Map<Entity, Projection | null>>();

function project(em: EntityManager, type: Entity, fields: Set<string>, always: string[]): Projection | null {
  const props = new Set([...always, ...(alwaysRead.get(type) ?? [])]);
  const resolved = declared.get(type);
  for (const field of fields) {
    if (field === '__typename') continue;
    const reads = resolved?.get(field);
    if (reads) reads.forEach((p) => props.add(p));
    else if (isColumnField(em, type, field)) props.add(field);
    else return null;
  }
  return projection(em, type, props);
}

/**
 * The names of the fields selected at `path` below the resolved field, through fragments.
 * Directives and type conditions are not applied: a field that may be skipped is still read,
 * which costs a column, never a wrong answer.
 */
function selectedFields(info: GraphQLResolveInfo, path: string[]): Set<string> {
  let sets: SelectionSetNode[] = info.fieldNodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : []));
  for (const step of path) sets = fieldsOf(info, sets).filter((f) => f.name.value === step).flatMap((f) => (f.selectionSet ? [f.selectionSet] : []));
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
