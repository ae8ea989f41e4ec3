import { ReferenceKind, type Collection } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * What a record of entity `T` holds, as a type: each field read-only, a related record as its id
 * alone (`{ id }`, what a row holds), no collection and no method. A record is not the managed
 * entity: the compiler refuses one where an entity is wanted (an EntityManager, a transition), a
 * write to its fields, and a read through a relation past its id.
 */
export type EntityRecord<T> = {
  readonly [K in keyof T as T[K] extends Collection<object> | ((...args: never[]) => unknown) ? never : K]: RecordField<T[K]>;
};

/** A field as a record holds it: a related entity (anything with an `id`) as its id alone. */
type RecordField<V> = V extends { id: infer I } ? { readonly id: I } : V;

/**
 * A record read with only some of `T`'s fields (`projection`): the compiler lets a reader see those
 * and no other, as the record itself throws on any other at run time.
 */
export type Projected<T, K extends keyof EntityRecord<T>> = Pick<EntityRecord<T>, K>;

/**
 * A read-only record of an entity's class: its fields as own, frozen data properties over the
 * class's prototype, without running the constructor or the ORM's property setters.
 *
 * Reads that skip the unit of work (plain rows, cached copies) hand such records to GraphQL:
 * type-graphql turns a `@Root()` that is not an instance of the field's class into one
 * (`new Entity()` + assign — for an ORM entity, its tracking setters) on every field resolver,
 * which costs more than the SQL it replaced. Never pass a record to an EntityManager.
 */
export function readRecord<T extends object>(type: abstract new (...args: never[]) => T, data: Record<string, unknown>): EntityRecord<T> {
  const proto = recordPrototype(type);
  const record = Object.create(proto.layer) as Record<string, unknown>;
  for (const key of Object.keys(data)) {
    if (!proto.seen.has(key)) shadow(type, proto, key);
    record[key] = data[key];
  }
  return Object.freeze(record) as EntityRecord<T>;
}

/**
 * The class's prototype under a layer that shadows the accessors the ORM defines for each field
 * with writable data properties, so a record's fields are set by plain assignment: own, fast
 * properties, and no setter runs (a descriptor per field costs more: docs/benchmarks.md,
 * "Measured costs behind code choices"). Only keys records carry are
 * shadowed (`seen`), so no getter a record does not replace is hidden.
 */
interface RecordPrototype {
  layer: object;
  seen: Set<string>;
}

const prototypes = new WeakMap<object, RecordPrototype>();

function recordPrototype(type: abstract new (...args: never[]) => unknown): RecordPrototype {
  let proto = prototypes.get(type);
  if (!proto) prototypes.set(type, (proto = { layer: Object.create(type.prototype as object) as object, seen: new Set() }));
  return proto;
}

function shadow(type: abstract new (...args: never[]) => unknown, proto: RecordPrototype, key: string): void {
  for (let p = type.prototype as object | null; p && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) {
    const d = Object.getOwnPropertyDescriptor(p, key);
    if (!d) continue;
    if (d.get || d.set || !d.writable) Object.defineProperty(proto.layer, key, { value: undefined, writable: true, enumerable: false, configurable: true });
    break;
  }
  proto.seen.add(key);
}

/**
 * A row of the entity's table (column names as PostgreSQL returns them) as a read-only record of
 * the entity's class (`readRecord`), its fields as the driver's `mapResult` gives them (dates
 * parsed, booleans as booleans, each many-to-one or owned one-to-one as `{ id }`), `extra`
 * added. Compiled once per class into straight-line code, not a generic walk per row (a keyed
 * store per column, then a record built from that copy): docs/benchmarks.md has the costs. A row
 * read with a `projection` becomes a record of that projection.
 */
export function rowRecord<T extends object>(
  em: EntityManager,
  type: abstract new (...args: never[]) => T,
  row: Record<string, unknown>,
  extra?: Record<string, unknown>,
): EntityRecord<T>;
export function rowRecord<T extends object, K extends keyof EntityRecord<T>>(
  em: EntityManager,
  type: abstract new (...args: never[]) => T,
  row: Record<string, unknown>,
  extra: Record<string, unknown> | undefined,
  projection: Projection<T, K> | null,
): Projected<T, K>;
export function rowRecord<T extends object>(
  em: EntityManager,
  type: abstract new (...args: never[]) => T,
  row: Record<string, unknown>,
  extra?: Record<string, unknown>,
  projection?: Projection<T, keyof EntityRecord<T>> | null,
): Partial<EntityRecord<T>> {
  let build = builders.get(type);
  if (!build) builders.set(type, (build = compileRowRecord(em, type)));
  const proto = recordPrototype(type);
  const record = build(row, em.getPlatform(), projection?.layer ?? proto.layer);
  if (extra) {
    for (const key of Object.keys(extra)) {
      if (!proto.seen.has(key)) shadow(type, proto, key);
      record[key] = extra[key];
    }
  }
  return Object.freeze(record) as Partial<EntityRecord<T>>;
}

/**
 * Some of an entity's columns, for a read that needs only those (`columns`, to select). A record
 * built from such a row has the projection's `layer` under it, where every other column's field
 * throws when read: a resolver reading a field nobody declared it needs fails loudly, never
 * answers a silent null.
 */
export interface Projection<T = unknown, K extends keyof EntityRecord<T> = keyof EntityRecord<T>> {
  readonly columns: readonly string[];
  readonly layer: object;
  /** Type only: the fields the projection holds (`K`), never set. */
  readonly fields?: readonly K[];
}

/** The projection of `type` onto the fields `props` (property names); cached per set of fields. */
export function projection<T extends object, K extends keyof EntityRecord<T> & string>(
  em: EntityManager,
  type: abstract new (...args: never[]) => T,
  props: Iterable<K>,
): Projection<T, K> {
  const wanted: string[] = [...new Set(props)].sort();
  let cache = projections.get(type);
  if (!cache) projections.set(type, (cache = new Map<string, Projection<never, never>>()));
  const key = wanted.join(',');
  const cached = cache.get(key);
  if (cached) return cached;
  const proto = recordPrototype(type);
  const layer = Object.create(proto.layer) as object;
  const columns: string[] = [];
  const read = new Set(wanted);
  for (const prop of columnProps(em, type)) {
    if (read.delete(prop.name)) {
      columns.push(prop.fieldNames[0]);
      continue;
    }
    const name = `${type.name}.${prop.name}`;
    Object.defineProperty(layer, prop.name, {
      get() {
        throw new Error(`${name} was not read: declare the fields a resolver reads (@Reads)`);
      },
      enumerable: false,
      configurable: true,
    });
  }
  if (read.size) throw new Error(`${type.name} has no column for ${[...read].join(', ')}`);
  const made: Projection<T, K> = { columns, layer };
  // Selections are the caller's to choose: the cache is bounded, not a place to keep them all.
  if (cache.size >= MAX_PROJECTIONS) cache.clear();
  cache.set(key, made);
  return made;
}

const MAX_PROJECTIONS = 256;
const projections = new WeakMap<object, Map<string, Projection<never, never>>>();

type RowBuilder = (row: Record<string, unknown>, platform: { parseDate(value: string): Date }, layer: object) => Record<string, unknown>;

const builders = new WeakMap<object, RowBuilder>();

/** Whether `field` of `type` is held in a column of its own (what a projection can name). */
export function isColumnField(em: EntityManager, type: abstract new (...args: never[]) => unknown, field: string): boolean {
  return columnProps(em, type).some((prop) => prop.name === field);
}

/** The entity's fields held in one column each: scalars, many-to-ones and owned one-to-ones. */
function columnProps(em: EntityManager, type: abstract new (...args: never[]) => unknown) {
  return em
    .getMetadata()
    .get(type.name)
    .props.filter(
      (prop) =>
        prop.persist !== false &&
        prop.fieldNames?.length === 1 &&
        (prop.kind === ReferenceKind.SCALAR || prop.kind === ReferenceKind.MANY_TO_ONE || (prop.kind === ReferenceKind.ONE_TO_ONE && prop.owner)),
    );
}

function compileRowRecord(em: EntityManager, type: abstract new (...args: never[]) => unknown): RowBuilder {
  const proto = recordPrototype(type);
  const lines: string[] = [];
  for (const prop of columnProps(em, type)) {
    const column = `row[${JSON.stringify(prop.fieldNames[0])}]`;
    let value: string;
    if (prop.kind !== ReferenceKind.SCALAR) value = `${column} == null ? ${column} : { id: ${column} }`;
    else if (prop.runtimeType === 'Date' && !em.getPlatform().isNumericProperty(prop))
      value = `${column} == null || ${column} instanceof Date ? ${column} : platform.parseDate(${column})`;
    else if (prop.runtimeType === 'boolean') value = `${column} == null ? ${column} : !!${column}`;
    else value = column;
    if (!proto.seen.has(prop.name)) shadow(type, proto, prop.name);
    lines.push(`if (${column} !== undefined) record[${JSON.stringify(prop.name)}] = ${value};`);
  }
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the row builder is compiled once per entity from its metadata (column names quoted by JSON.stringify), not from input
  return new Function(
    'row',
    'platform',
    'layer',
    `'use strict';\n  const record = Object.create(layer);\n  ${lines.join('\n  ')}\n  return record;`,
  ) as RowBuilder;
}
