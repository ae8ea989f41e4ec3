import { getNamedType, isObjectType, type GraphQLNamedType, type GraphQLSchema } from 'graphql';
import { getMetadataStorage } from 'type-graphql';
import { frontDoor } from '../../access/module-manifest';
import { MODULE_MANIFESTS, MODULE_PARTS } from '../../modules/manifests';

/*
 * Which module's front door a start-time check names, so its message says which file to edit: the
 * module that declares a rule for the field, else the module whose resolver defines it.
 */

type Root = 'Query' | 'Mutation' | 'Subscription';

/** The module (folder name) of a root field, or null for the transport's own (the event feed, the subscriptions). */
export function rootFieldModule(root: Root, field: string): string | null {
  const declared = MODULE_PARTS.declaredBy[field];
  if (declared) return declared;
  const storage = getMetadataStorage();
  const handlers = root === 'Query' ? storage.queries : root === 'Mutation' ? storage.mutations : storage.subscriptions;
  const handler = handlers.find((h) => h.schemaName === field);
  return MODULE_MANIFESTS.find((m) => handler && m.resolvers.includes(handler.target))?.name ?? null;
}

/** The file where a root field's rules are written: its module's front door, else `transportFile`. */
export function rootFieldRulesFile(root: Root, field: string, transportFile: string): string {
  const module = rootFieldModule(root, field);
  return module ? frontDoor(module) : transportFile;
}

/**
 * The file where a type's visibility rule belongs: the front door of the module that declares it,
 * else of the module whose root field first reaches it (a module's types are reached from its own
 * fields), else this transport's visibility.ts.
 */
export function typeRulesFile(schema: GraphQLSchema, typeName: string): string {
  const declared = MODULE_PARTS.declaredBy[typeName];
  if (declared) return frontDoor(declared);
  const roots = [
    ['Query', schema.getQueryType()],
    ['Mutation', schema.getMutationType()],
    ['Subscription', schema.getSubscriptionType()],
  ] as const;
  for (const [root, type] of roots) {
    for (const field of Object.values(type?.getFields() ?? {})) {
      if (reaches(getNamedType(field.type), typeName, new Set())) return rootFieldRulesFile(root, field.name, 'src/transports/graphql/visibility.ts');
    }
  }
  return 'src/transports/graphql/visibility.ts';
}

function reaches(type: GraphQLNamedType, name: string, seen: Set<string>): boolean {
  if (type.name === name) return true;
  if (!isObjectType(type) || seen.has(type.name)) return false;
  seen.add(type.name);
  return Object.values(type.getFields()).some((f) => reaches(getNamedType(f.type), name, seen));
}
