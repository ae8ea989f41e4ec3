import type { Clock } from '../common/clock';
import type { EventBus } from '../events/pubsub';
import type { ReadCache } from '../persistence/read-cache';
import type { SupplyRegistry } from '../supply/http-provider';
import type { OpsRules } from './duties';
import type { RequestContext } from './graphql-context';
import type { ModuleName, ModulesUpTo } from './module-order';
import type { Quotas } from './quotas';
import type { RateLimits } from './rate-limit';

/**
 * The services each module owns, by module: every front door (src/modules/<m>/index.ts) fills in
 * its own row by declaration merging, and lists the same keys in its manifest's `services`, so a
 * service has one owner and a service without one is not wired (src/services.ts builds exactly
 * these keys, the infrastructure's and the transports'). This layer names no module.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- an empty table filled in by each module's front door
export interface ServicesByModule {}

/** What belongs to no module: every module may use it. */
export interface InfrastructureServices {
  clock: Clock;
  /** Reference data shared by every instance (src/persistence/read-cache.ts). */
  readCache: ReadCache;
  /** Where committed events are announced (subscriptions; Redis across instances). */
  eventBus: EventBus;
  rateLimits: RateLimits;
  quotas: Quotas;
  /** The supply-side platforms (src/supply/). */
  supply: SupplyRegistry;
  /** Every module's ops role and duty rules, folded from the manifests (src/modules/manifests.ts). */
  opsRules: OpsRules;
}

/** The infrastructure's keys, for the checks that read them at run time (test/unit/module-services.test.ts). */
export const INFRASTRUCTURE_SERVICES = {
  clock: true,
  readCache: true,
  eventBus: true,
  rateLimits: true,
  quotas: true,
  supply: true,
  opsRules: true,
} as const satisfies Record<keyof InfrastructureServices, true>;

/** One object type of a union of them: the services of several modules side by side. */
type Joined<U> = (U extends unknown ? (u: U) => void : never) extends (all: infer All) => void ? All : never;

/** The keys a module's manifest lists, exactly those of its row of ServicesByModule. */
export type ServiceKeys<M extends ModuleName> = M extends keyof ServicesByModule ? Record<keyof ServicesByModule[M], true> : never;

/**
 * The services module `M` may call: the infrastructure's, its own and those of the modules before
 * it (src/modules/module-order.json). A later module's service is not there, so a call to it
 * does not compile; the earlier module declares the function it needs instead, and the
 * composition root passes the later module's (docs/architecture.md#services-per-module).
 */
export type ServicesOf<M extends ModuleName> = InfrastructureServices & Joined<ServicesByModule[ModulesUpTo<M> & keyof ServicesByModule]>;

/** What a resolver of module `M` receives: the request's context, with the services `M` may call. */
export interface ModuleContext<M extends ModuleName> extends RequestContext {
  services: ServicesOf<M>;
}

/** Every module's services: the composition root's and the transports' view. */
export type AllModuleServices = Joined<ServicesByModule[ModuleName & keyof ServicesByModule]>;
