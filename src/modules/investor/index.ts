import { InvestorOpsResolver, InvestorResolver, InvestorWalletResolver } from './investor.resolver';
import { UserResolver } from './user.resolver';
import { WalletFreezeResolver } from './wallet-freeze.resolver';
import { Investor, InvestorGrant, InvestorWallet } from './investor.entity';
import { AddressClaim } from './address-claim.entity';
import { WalletFreeze } from './wallet-freeze.entity';
import { ends, nothing } from '../../access/duties';
import { type ModuleManifest, ref } from '../../access/module-manifest';
import type { RequestContext } from '../../access/graphql-context';
import type { InvestorService } from './investor.service';
import type { InvestorWalletService } from './investor-wallet.service';
import type { WalletOnChain } from './wallet-onchain';
import type { WalletFreezes } from './wallet-freeze';

// What other modules use of investor: they import it from here, never from its files.
export { INVESTOR_CATEGORIES, InvestorCategory, isCategoryUpgrade } from './investor-category';
export { InvestorWalletService, WALLET_IN_USE_SQL, walletInUse } from './investor-wallet.service';
export { Investor, InvestorWallet, WalletStatus } from './investor.entity';
export { investorNotFound, investorNotFoundById, investorNotTrading } from './investor.errors';
export { InvestorService } from './investor.service';
export { RecoverInvestorWalletInput } from './investor.types';
export {
  notInvestorsWallet,
  orderInvestorShown,
  refuseClaimedAddress,
  refuseForeignWallet,
  refuseTakenAddress,
  requireOwnWallet,
  walletCustody,
  walletCustodyMany,
} from './wallet-custody';
export { WalletOnChain } from './wallet-onchain';
export { heldFreezes, walletFrozenRefusal, WalletFreezes, type WalletUnfreezeEffect } from './wallet-freeze';
export { WalletFreeze, WalletFreezeStatus } from './wallet-freeze.entity';
export { DEFAULT_KYC_EXPIRY_MS, type KycClaims } from './kyc-claim';
export { kycExpired, kycHolds } from './kyc';
export { DEFAULT_COUNTRY_BACKFILL_MS, type WalletCountries } from './wallet-country';
export type { WalletRecoveryEffect } from './wallet-recovery-effect';

/** The distributor whose book an investor's record is in (a wallet's, a holding's visibility). */
export const investorOwner = async (investorId: string | null, ctx: RequestContext) =>
  investorId ? ref((await ctx.loaders.byId(Investor).load(investorId))?.distributor) : null;

/** The services the investor module owns in the context (wired in src/services.ts; src/access/module-services.ts). */
declare module '../../access/module-services' {
  interface ServicesByModule {
    investor: {
      investor: InvestorService;
      investorWallet: InvestorWalletService;
      walletOnChain: WalletOnChain | null;
      walletFreezes: WalletFreezes;
    };
  }
}

/** The investor module's manifest, collected by src/modules/manifests.ts. */
/* eslint-disable @typescript-eslint/no-unsafe-member-access -- a visibility rule reads a record of its own GraphQL type (src/access/module-manifest.ts) */
export const investorModule: ModuleManifest<'investor'> = {
  name: 'investor',
  services: { investor: true, investorWallet: true, walletOnChain: true, walletFreezes: true },
  resolvers: [InvestorResolver, InvestorOpsResolver, InvestorWalletResolver, UserResolver, WalletFreezeResolver],
  entities: [Investor, InvestorGrant, InvestorWallet, AddressClaim, WalletFreeze],
  mutationRoles: {
    registerInvestor: 'operator',
    grantInvestorShareClass: 'operator',
    revokeInvestorShareClass: 'operator',
    registerUser: 'operator',
    addInvestorWallet: 'operator',
    whitelistInvestorWallet: 'operator',
    /** Freezing a compromised wallet stays immediate: one operator, no approval. */
    removeInvestorWallet: 'operator',
    /** Freezing is protective: one operator, at once, with a reason; its unfreeze is a four-eyes request (`requestWalletUnfreeze`). */
    freezeInvestorWallet: 'operator',
  },
  queryRoles: {},
  mutationDuties: {
    registerInvestor: nothing,
    grantInvestorShareClass: nothing,
    revokeInvestorShareClass: nothing,
    registerUser: nothing,
    /** `whitelisted: true` on a chain the gateway writes to whitelists too: the adder alone is one party. */
    addInvestorWallet: { ends: ['walletWhitelisting'], steps: ['walletWhitelisting'] },
    whitelistInvestorWallet: ends('walletWhitelisting'),
    removeInvestorWallet: ends('walletFreeze'),
    freezeInvestorWallet: ends('walletFreeze'),
  },
  visibility: {
    Investor: { owner: (i) => ref(i.distributor) },
    InvestorWallet: { owner: (w, ctx) => investorOwner(ref(w.investor), ctx) },
    /** A freeze (and its reason) is operations' record; a distributor hears of it as a refusal. */
    WalletFreeze: 'ops',
  },
};
/* eslint-enable @typescript-eslint/no-unsafe-member-access */
