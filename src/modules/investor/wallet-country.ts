import { LockMode } from '@mikro-orm/core';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { ISO_3166_NUMERIC } from '../../common/iso-3166-numeric';
import type { TokenLedger } from '../../ledger/token-ledger';
import type { Token } from '../token';
import { Investor, InvestorWallet, WalletStatus } from './investor.entity';

/** How many wallets one backfill pass takes. */
const BACKFILL_BATCH = 100;
/** How often the backfill looks again (it runs at start; after that it finds wallets only when a pass failed). */
export const DEFAULT_COUNTRY_BACKFILL_MS = 3_600_000;

/** The investor's country as identity registries store it: ISO 3166-1 numeric, 0 where none is known. */
export const registryCountry = (investor: Investor): number => ISO_3166_NUMERIC[investor.countryCode?.toUpperCase() ?? ''] ?? 0;

/**
 * The country each wallet's registration carries on chain. Wallets registered before the gateway
 * carried countries have 0 in the identity registry, which a token's country rules read as
 * "no country". The backfill takes each whitelisted wallet whose registered country the gateway
 * does not know (`registeredCountry` null: registered before it was recorded), reads the chain
 * once, and where the registry's country differs from the investor's, writes an `updateCountry`
 * intent per registry; the country is recorded in the same transaction (rows taken `skip
 * locked`), so each difference is corrected exactly once across restarts and instances.
 * An investor's country is set at registration and not changed afterwards (investor.service.ts),
 * so nothing else moves it; a change, if the model ever allows one, calls `correct`.
 */
export class WalletCountries {
  constructor(
    private readonly chain: TokenLedger,
    /** One token per identity registry storage of a chain (registering through one registers for all that share it). */
    private readonly registriesOn: (em: EntityManager, chainId: string) => Promise<Token[]>,
  ) {}

  /** The job: every whitelisted wallet of unknown registered country checked once. Returns how many intents it wrote. */
  async backfill(orm: MikroORM): Promise<number> {
    let written = 0;
    for (;;) {
      const { checked, intents } = await orm.em.fork().transactional((em) => this.backfillSome(em));
      written += intents;
      if (checked < BACKFILL_BATCH) break;
    }
    if (written) this.chain.wake();
    return written;
  }

  /** Writes `updateCountry` for each of the wallet's registries whose country (`onChain`, per registry) is not the investor's. */
  async correct(em: EntityManager, wallet: InvestorWallet, registries: Token[], onChain: (registry: string) => Promise<number | null>): Promise<number> {
    const country = registryCountry(await em.findOneOrFail(Investor, wallet.investor.id));
    let intents = 0;
    for (const token of registries) {
      const stored = await onChain(token.identityRegistry!);
      if (stored === null || stored === country) continue;
      this.chain.intend(
        em,
        { chainId: wallet.chainId, purpose: 'wallet.country', walletId: wallet.id },
        { op: 'updateCountry', registry: token.identityRegistry!, wallet: wallet.address, country },
      );
      intents += 1;
    }
    wallet.registeredCountry = country;
    return intents;
  }

  private async backfillSome(em: EntityManager): Promise<{ checked: number; intents: number }> {
    const wallets = await em.find(
      InvestorWallet,
      { status: WalletStatus.whitelisted, registeredCountry: null, onchainIdentity: { $ne: null } },
      { orderBy: { id: 'asc' }, limit: BACKFILL_BATCH, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
    );
    let intents = 0;
    let checked = 0;
    for (const wallet of wallets) {
      if (!this.chain.writes(wallet.chainId)) continue;
      checked += 1;
      const registries = await this.registriesOn(em, wallet.chainId);
      intents += await this.correct(em, wallet, registries, (registry) => this.chain.registeredCountry(wallet.chainId, registry, wallet.address));
    }
    await em.flush();
    return { checked, intents };
  }
}
