import { InvestorOpsResolver, InvestorResolver, InvestorWalletResolver } from './investor.resolver';
import { UserResolver } from './user.resolver';
import { Investor, InvestorGrant, InvestorWallet } from './investor.entity';
import { AddressClaim } from './address-claim.entity';
import { ends, nothing } from '../../access/duties';
import { type ModuleManifest, ref } from '../../access/module-manifest';
import type { GatewayContext } from '../../access/graphql-context';

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
export { type KycClaims, KycExpirySchedule } from './kyc-claim';
export { CountryBackfillSchedule, type WalletCountries } from './wallet-country';
export type { WalletRecoveryEffect } from './wallet-recovery-effect';

/** The distributor whose book an investor's record is in (a wallet's, a holding's visibility). */
export const investorOwner = async (investorId: string | null, ctx: GatewayContext) =>
  investorId ? ref((await ctx.loaders.byId(Investor).load(investorId))?.distributor) : null;

/** The investor module's manifest, collected by src/modules/manifests.ts. */
/* eslint-disable @typescript-eslint/no-unsafe-member-access -- a visibility rule reads a record of its own GraphQL type (src/access/module-manifest.ts) */
export const investorModule: ModuleManifest = {
  name: 'investor',
  resolvers: [InvestorResolver, InvestorOpsResolver, InvestorWalletResolver, UserResolver],
  entities: [Investor, InvestorGrant, InvestorWallet, AddressClaim],
  mutationRoles: {
    registerInvestor: 'operator',
    grantInvestorShareClass: 'operator',
    revokeInvestorShareClass: 'operator',
    registerUser: 'operator',
    addInvestorWallet: 'operator',
    whitelistInvestorWallet: 'operator',
    /** Freezing a compromised wallet stays immediate: one operator, no approval. */
    removeInvestorWallet: 'operator',
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
  },
  visibility: {
    Investor: { owner: (i) => ref(i.distributor) },
    InvestorWallet: { owner: (w, ctx) => investorOwner(ref(w.investor), ctx) },
  },
};
/* eslint-enable @typescript-eslint/no-unsafe-member-access */
