import type { MikroORM } from '@mikro-orm/postgresql';
import { bounded } from '../../common/bounded';
import type { ChainHandle } from './chains';
import { releaseSignerLeases, takeSignerLease } from './chain.queries';

/** How long a stop waits to release the lease. */
const LEASE_RELEASE_MS = 2000;

/*
 * The lease of an agent key (chain_signer): one writer per key across instances, so nonces are
 * handed out by one process. Taken or renewed at every pass of the sender; another instance
 * takes it only once it has run out (a dead process holds it for `leaseSeconds` at most).
 */

/** Takes or renews the lease of the chain's agent key for `owner`; false while another instance holds it. */
export async function takeLease(orm: MikroORM, chain: ChainHandle, owner: string): Promise<boolean> {
  return takeSignerLease(orm.em.fork(), { chainId: chain.id, address: chain.agent }, owner, chain.config.leaseSeconds);
}

/**
 * Gives up every lease `owner` holds: a clean stop hands the key on at once (the next instance need
 * not wait out the lease), within a bound; a database that is away lets the lease run out instead.
 */
export async function releaseLeases(orm: MikroORM, owner: string): Promise<void> {
  const release = releaseSignerLeases(orm.em.fork(), owner);
  await bounded('releasing the chain lease', release, LEASE_RELEASE_MS);
}

/**
 * Runs `work` holding the lease: taken first (false, and nothing run, while another instance holds
 * it), then renewed every third of its length until `work` ends. A pass can outlast the lease when
 * the node or the machine is slow (estimates, fees, a batch's call): without renewal another
 * instance took the lease mid-pass, the first found it lost at signing, and under load the
 * instances could take it from each other for ever with nothing signed (seen in the many-gateways
 * drill with a 3 s lease on a loaded machine).
 */
export async function withLease(orm: MikroORM, chain: ChainHandle, owner: string, work: () => Promise<void>): Promise<boolean> {
  if (!(await takeLease(orm, chain, owner))) return false;
  const renewal = setInterval(() => void takeLease(orm, chain, owner).catch(() => undefined), (chain.config.leaseSeconds * 1000) / 3);
  try {
    await work();
  } finally {
    clearInterval(renewal);
  }
  return true;
}
