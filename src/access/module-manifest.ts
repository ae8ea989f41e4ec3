import type { EntityClass } from '@mikro-orm/core';
import type { RequestContext } from './graphql-context';
import type { ModuleName } from './module-order';
import type { ServiceKeys } from './module-services';
import type { OpsRules } from './duties';
import { WebhookEvents, type WebhookEventFamily } from './webhook-event-family';

/*
 * What a module brings to the gateway, declared once in its front door (`src/modules/<m>/index.ts`)
 * and collected by the list of manifests (src/modules/manifests.ts): the transports, the ORM and
 * the start-time checks fold that list, so no central table names a module's parts by hand.
 * The types live here, below the modules, so every module may name them.
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- each rule reads a record of its own GraphQL type, which only the type name keys; the walk over every field and route (test/security) proves the rows */
/** The tenant rule of one GraphQL object type (applied by src/transports/graphql/visibility.ts). */
export type Visibility =
  /** A record of one distributor's book: `owner` gives that distributor's id (`DT…`). */
  | { owner: (record: any, ctx: RequestContext) => string | null | undefined | Promise<string | null | undefined> }
  /** Visible with its share class: ops, or a distributor the share class is granted to. */
  | { shareClass: (record: any) => string | null | undefined }
  /** Operations' data only. */
  | 'ops'
  /** A part of a checked parent (its embedded details, its history); never returned by a root field. */
  | 'part'
  /** Holds no tenant data of its own (pages, acknowledgements, health); its object fields are checked in turn. */
  | 'open';
/* eslint-enable @typescript-eslint/no-explicit-any */

export interface ModuleManifest<M extends ModuleName = ModuleName> extends OpsRules {
  /** The module's folder under src/modules/, which the start-time checks name (`src/modules/<name>/index.ts`). */
  name: M;
  /**
   * The keys of the services it owns, exactly its row of ServicesByModule (src/access/module-services.ts),
   * which the front door declares beside the manifest: read by the check that a module calls no later one's.
   */
  services: ServiceKeys<M>;
  /** Its GraphQL resolvers (root fields and field resolvers). */
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- type-graphql's buildSchema takes resolvers as Function
  resolvers: readonly Function[];
  /** Its entities and embeddables, for the ORM and the migration generator. */
  entities: readonly EntityClass<unknown>[];
  /** The tenant rule of each GraphQL object type it defines. */
  visibility: Readonly<Record<string, Visibility>>;
  /** The webhook events it emits, if any (src/access/webhook-event-family.ts). */
  webhookEvents?: WebhookEventFamily;
}

/** The file to edit for a module's rules. */
export const frontDoor = (module: string): string => `src/modules/${module}/index.ts`;

/** The manifests' parts, folded in their order. */
export interface ModuleParts extends OpsRules {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- as in ModuleManifest
  resolvers: Function[];
  entities: EntityClass<unknown>[];
  visibility: Record<string, Visibility>;
  /** The module that declares each rule (role, duty, visibility), by field or type name. */
  declaredBy: Record<string, string>;
  /** The module that owns each service, by its key in the context's `services`. */
  serviceOwners: Record<string, string>;
  /** Every module's webhook event families, in their published order. */
  webhookEvents: WebhookEvents;
  /** The module that emits each webhook event type. */
  webhookEventOwners: Record<string, string>;
}

type Rows = 'mutationRoles' | 'queryRoles' | 'mutationDuties' | 'visibility';

/** Folds the manifests; a row two modules both declare is a mistake, refused at once. */
export function foldManifests(manifests: readonly ModuleManifest[]): ModuleParts {
  const declaredBy: Record<string, string> = {};
  const rows = <K extends Rows>(key: K): ModuleManifest[K] => {
    const out: Record<string, unknown> = {};
    for (const m of manifests)
      for (const [name, row] of Object.entries(m[key])) {
        if (name in out) throw new Error(`${key} row ${name} is declared twice (${frontDoor(declaredBy[`${key}:${name}`])} and ${frontDoor(m.name)})`);
        out[name] = row;
        declaredBy[`${key}:${name}`] = m.name;
        declaredBy[name] ??= m.name;
      }
    return out as ModuleManifest[K];
  };
  const serviceOwners: Record<string, string> = {};
  for (const m of manifests)
    for (const key of Object.keys(m.services)) {
      if (key in serviceOwners) throw new Error(`service ${key} is owned twice (${frontDoor(serviceOwners[key])} and ${frontDoor(m.name)})`);
      serviceOwners[key] = m.name;
    }
  const webhookEventOwners: Record<string, string> = {};
  const listed = new Map<number, string>();
  for (const m of manifests) {
    const place = m.webhookEvents?.listed;
    if (place !== undefined && listed.has(place))
      throw new Error(`webhook events listed ${place} twice (${frontDoor(listed.get(place)!)} and ${frontDoor(m.name)})`);
    if (place !== undefined) listed.set(place, m.name);
    for (const type of m.webhookEvents?.types ?? []) {
      if (type in webhookEventOwners)
        throw new Error(`webhook event ${type} is emitted twice (${frontDoor(webhookEventOwners[type])} and ${frontDoor(m.name)})`);
      webhookEventOwners[type] = m.name;
    }
  }
  return {
    resolvers: manifests.flatMap((m) => m.resolvers),
    entities: manifests.flatMap((m) => m.entities),
    mutationRoles: rows('mutationRoles'),
    queryRoles: rows('queryRoles'),
    mutationDuties: rows('mutationDuties'),
    visibility: rows('visibility'),
    declaredBy,
    serviceOwners,
    webhookEvents: new WebhookEvents(manifests.flatMap((m) => (m.webhookEvents ? [m.webhookEvents] : []))),
    webhookEventOwners,
  };
}

/** The id a record holds for a relation (a string, or a reference `{ id }`), as visibility rules read it. */
export const ref = (v: unknown): string | null => (typeof v === 'string' ? v : ((v as { id?: string } | null)?.id ?? null));
