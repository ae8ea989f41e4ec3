/**
 * A read-only record of an entity's class: its fields as own, frozen data properties over the
 * class's prototype, without running the constructor or the ORM's property setters.
 *
 * Reads that skip the unit of work (plain rows, cached copies) hand such records to GraphQL:
 * type-graphql turns a `@Root()` that is not an instance of the field's class into one
 * (`new Entity()` + assign — for an ORM entity, its tracking setters) on every field resolver,
 * which costs more than the SQL it replaced. Never pass a record to an EntityManager.
 */
export function readRecord<T extends object>(type: abstract new (...args: never[]) => T, data: Record<string, unknown>): T {
  const descriptors: PropertyDescriptorMap = {};
  for (const key of Object.keys(data)) descriptors[key] = { value: data[key], enumerable: true };
  return Object.freeze(Object.create(type.prototype, descriptors)) as T;
}
