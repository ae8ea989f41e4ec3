import type { EntityManager } from '@mikro-orm/postgresql';
import { UniqueConstraintViolationException, type FilterQuery } from '@mikro-orm/core';
import { nextId } from '../../common/ids';
import type { GrantMap } from '../../access/access';
import type { ServiceContext } from '../../access/service-context';
import { badRequest } from '../../common/errors';
import type { Clock } from '../../common/clock';
import type { ReadCache } from '../../persistence/read-cache';
import { appendEvent } from '../../events/event-log';
import { chainId, containsPattern, evmAddress, optional, required, statusWord } from '../../common/validate';
import { paginate } from '../../persistence/pagination';
import { ShareClass, shareClassNotFound } from '../share-class';
import { DeliveryMode, Distributor, DistributorHost, DistributorWallet, ShareClassGrant } from './distributor.entity';
import { validBinding, type HostBinding } from './host-binding';
import { distributorStatus, grantRows } from './distributor.queries';
import { distributorNotFoundById, grantNotFound, hostNotMapped, hostTaken, invalidHostname } from './distributor.errors';

type Page = { first?: number | null; after?: string | null };

/** What surface R needs to know of a host: whose it is and what it is bound to. */
export interface HostMapping extends HostBinding {
  distributorId: string;
}

type BindingInput = { sourceRanges?: string[] | null; clientCertSha256?: string | null };

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * The custody rule a distributor's own wallet obeys: an address is one holder's, investors'
 * included (docs/custody.md). The investor module, which comes after distributor, keeps the
 * claims and provides it; the composition root wires it (src/services.ts).
 */
export interface AddressClaims {
  refuseClaimedAddress(em: EntityManager, holder: { kind: 'distributor'; id: string }, address: string, field: string): Promise<void>;
}

/** How a hostname is stored and looked up: trimmed, lower case, without a trailing dot. */
export function normaliseHostname(value: unknown): string {
  const host = required(value, 'hostname').trim().toLowerCase().replace(/\.$/, '');
  if (!HOSTNAME.test(host)) throw invalidHostname();
  return host;
}

export class DistributorService {
  constructor(
    private readonly clock: Clock,
    private readonly cache: ReadCache,
    private readonly claims: AddressClaims,
    /** Outside development and test: a host's source ranges lie inside private networks (host-binding.ts, validBinding). */
    private readonly privateSourceRangesOnly = false,
  ) {}

  /**
   * The distributor a surface-R hostname is mapped to and the host's binding, or null
   * ("hostname provisioning"). Mappings are cached; mapping, binding or unmapping a hostname
   * appends the event that drops it.
   */
  async resolveHost(ctx: Pick<ServiceContext, 'em'>, hostname: string): Promise<HostMapping | null> {
    const host = hostname.toLowerCase();
    // The cache, below the modules, knows a host entry only by its distributor; this slot holds only HostMappings.
    const mapping = (await this.cache.hosts.get(host, async (): Promise<HostMapping | undefined> => {
      const row = await ctx.em.findOne(DistributorHost, { hostname: host });
      return row ? { distributorId: row.distributor.id, sourceRanges: row.sourceRanges, clientCertSha256: row.clientCertSha256 ?? null } : undefined;
    })) as HostMapping | undefined;
    return mapping ?? null;
  }

  /** The event every change of a distributor's hosts or grants appends in its unit of work. */
  private changed(ctx: ServiceContext, distributorId: string, type: string, payload: Record<string, unknown>): void {
    appendEvent(ctx.em, { type, aggregateType: 'distributor', aggregateId: distributorId, distributorId, payload, occurredAt: this.clock.now() });
  }

  /** A distributor the caller may act for; another's answers like a missing one (null). */
  async findVisible(ctx: ServiceContext, id: string): Promise<Distributor | null> {
    if (!ctx.access.sees(id)) return null;
    return ctx.em.findOne(Distributor, { id });
  }

  /**
   * The share classes a distributor may sell, with each grant's delivery mode: the one place the
   * grant rule is read. Inside a write (a transaction) from the database, so a revocation that
   * committed is never missed; on reads from the cache, which grant and revoke events keep in step.
   */
  async grantsOf(em: EntityManager, distributorId: string): Promise<GrantMap> {
    const load = async () => {
      // Plain rows: no partially loaded grants left in the request's identity map.
      const rows = await grantRows(em, distributorId);
      return new Map(rows.map((g) => [g.share_class_id, g.delivery_mode])) as GrantMap;
    };
    if (em.isInTransaction()) return load();
    return (await this.cache.grants.get(distributorId, load)) ?? new Map();
  }

  /** A distributor's status (cached; its update event drops it), or null when there is no such distributor. */
  async standingOf(em: EntityManager, distributorId: string): Promise<string | null> {
    const status = await this.cache.standings.get(distributorId, () => distributorStatus(em, distributorId));
    return status ?? null;
  }

  /* ---- ops provisioning ---- */

  /** Ops: one distributor by `DT######` or its surface-O alias `PT######`. */
  async get(ctx: ServiceContext, id: unknown): Promise<Distributor> {
    ctx.access.requireOps();
    const raw = required(id, 'distributorId').trim();
    const recordOf = ctx.access.recordId(raw, 'distributor');
    const found = recordOf ? await ctx.em.findOne(Distributor, { id: recordOf }) : null;
    if (!found) throw distributorNotFoundById(raw);
    return found;
  }

  async list(ctx: ServiceContext, filter: { status?: string | null; nameContains?: string | null } = {}, page: Page = {}) {
    ctx.access.requireOps();
    const where: FilterQuery<Distributor> = {};
    const status = optional(filter.status, 'status');
    const name = optional(filter.nameContains, 'nameContains');
    if (status) where.status = status;
    if (name) where.name = { $ilike: containsPattern(name) };
    return paginate(ctx.em, Distributor, where, page);
  }

  async create(ctx: ServiceContext, input: { name?: string | null }): Promise<Distributor> {
    ctx.access.requireOps();
    const distributor = ctx.em.create(Distributor, { id: await nextId(ctx.em, 'DT'), name: required(input.name, 'name').trim(), status: 'active' });
    await ctx.em.flush();
    return distributor;
  }

  async update(ctx: ServiceContext, id: string, input: { name?: string | null; status?: string | null }): Promise<Distributor> {
    const distributor = await this.get(ctx, id);
    if (input.name != null) distributor.name = required(input.name, 'name').trim();
    if (input.status != null) distributor.status = statusWord(input.status);
    // Admission reads the status from the cache: the event drops it here and on other instances.
    this.changed(ctx, distributor.id, 'distributor.updated', { status: distributor.status });
    await ctx.em.flush();
    return distributor;
  }

  /**
   * Ops: map a hostname to a distributor (surface R), optionally bound at once (HostBinding).
   * A hostname belongs to one distributor: 409 when taken.
   */
  async addHost(ctx: ServiceContext, input: { distributorId?: string | null; hostname?: string | null } & BindingInput): Promise<DistributorHost> {
    const hostname = normaliseHostname(input.hostname);
    const distributor = await this.get(ctx, input.distributorId);
    const binding = validBinding(input, this.privateSourceRangesOnly);
    if (await ctx.em.count(DistributorHost, { hostname })) throw hostTaken(hostname);
    const host = ctx.em.create(DistributorHost, { hostname, distributor, ...binding });
    this.changed(ctx, distributor.id, 'distributor.host_mapped', { hostname, ...binding });
    // A concurrent insert of the same hostname fails on the primary key: the same 409.
    await ctx.em.flush().catch((err) => {
      throw err instanceof UniqueConstraintViolationException ? hostTaken(hostname) : err;
    });
    return host;
  }

  /**
   * Ops: replace a host's binding: the source ranges it admits and the client certificate it
   * requires (both empty: unbound, refused where HOST_BINDING_REQUIRED is on).
   */
  async bindHost(ctx: ServiceContext, input: { hostname?: string | null } & BindingInput): Promise<DistributorHost> {
    ctx.access.requireOps();
    const hostname = normaliseHostname(input.hostname);
    const binding = validBinding(input, this.privateSourceRangesOnly);
    const host = await ctx.em.findOne(DistributorHost, { hostname }, { populate: ['distributor'] });
    if (!host) throw hostNotMapped(hostname);
    host.sourceRanges = binding.sourceRanges;
    host.clientCertSha256 = binding.clientCertSha256;
    this.changed(ctx, host.distributor.id, 'distributor.host_bound', { hostname, ...binding });
    await ctx.em.flush();
    return host;
  }

  /** Ops: unmap a hostname; requests on it then get 403 on surface R. Returns its former distributor. */
  async removeHost(ctx: ServiceContext, hostnameInput: unknown): Promise<Distributor> {
    ctx.access.requireOps();
    const hostname = normaliseHostname(hostnameInput);
    const host = await ctx.em.findOne(DistributorHost, { hostname }, { populate: ['distributor'] });
    if (!host) throw hostNotMapped(hostname);
    const distributor = host.distributor;
    ctx.em.remove(host);
    this.changed(ctx, distributor.id, 'distributor.host_unmapped', { hostname });
    await ctx.em.flush();
    return distributor;
  }

  /** Ops: the distributor's own wallet on a chain (tokens land there in `hold` delivery); replaces the previous one. */
  async setWallet(ctx: ServiceContext, input: { distributorId?: string | null; chainId?: string | null; address?: string | null }): Promise<DistributorWallet> {
    const chain = chainId(input.chainId);
    const address = evmAddress(input.address, 'address');
    const distributor = await this.get(ctx, input.distributorId);
    // The custody rule: an address is one holder's wallet (docs/custody.md); the address's claim holds it against a concurrent writer.
    await this.claims.refuseClaimedAddress(ctx.em, { kind: 'distributor', id: distributor.id }, address, 'address');
    let wallet = await ctx.em.findOne(DistributorWallet, { distributor, chainId: chain });
    if (wallet) wallet.address = address;
    else wallet = ctx.em.create(DistributorWallet, { distributor, chainId: chain, address });
    await ctx.em.flush();
    return wallet;
  }

  /** Ops: let a distributor sell a share class, delivering tokens `passthrough` or `hold`. Granting again changes the mode. */
  async grant(
    ctx: ServiceContext,
    input: { distributorId?: string | null; shareClassId?: string | null; deliveryMode?: DeliveryMode | null },
  ): Promise<ShareClassGrant> {
    const distributor = await this.get(ctx, input.distributorId);
    const shareClassId = required(input.shareClassId, 'shareClassId');
    const mode = input.deliveryMode;
    if (mode !== DeliveryMode.passthrough && mode !== DeliveryMode.hold) throw badRequest('deliveryMode must be one of passthrough, hold');
    const shareClass = await ctx.em.findOne(ShareClass, { id: shareClassId });
    if (!shareClass) throw shareClassNotFound();
    let grant = await ctx.em.findOne(ShareClassGrant, { distributor, shareClass });
    if (grant) grant.deliveryMode = mode;
    else grant = ctx.em.create(ShareClassGrant, { distributor, shareClass, deliveryMode: mode });
    this.changed(ctx, distributor.id, 'distributor.share_class_granted', { shareClassId, deliveryMode: mode });
    await ctx.em.flush();
    return grant;
  }

  /**
   * Ops: stop a distributor selling a share class. Its investors' grants of that share class stay
   * recorded but are of no use while the distributor lacks the grant.
   */
  async revoke(ctx: ServiceContext, input: { distributorId?: string | null; shareClassId?: string | null }): Promise<Distributor> {
    const distributor = await this.get(ctx, input.distributorId);
    const shareClassId = required(input.shareClassId, 'shareClassId');
    const grant = await ctx.em.findOne(ShareClassGrant, { distributor, shareClass: shareClassId });
    if (!grant) throw grantNotFound(distributor.id, shareClassId);
    ctx.em.remove(grant);
    this.changed(ctx, distributor.id, 'distributor.share_class_revoked', { shareClassId });
    await ctx.em.flush();
    return distributor;
  }
}
