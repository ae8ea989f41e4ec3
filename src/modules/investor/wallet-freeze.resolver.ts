import { Arg, Ctx, FieldResolver, ID, Mutation, Resolver, Root } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { InvestorWallet } from './investor.entity';
import { heldFreezes } from './wallet-freeze';
import { WalletFreeze } from './wallet-freeze.entity';

/** A wallet frozen on a share class's token (wallet-freeze.ts); its unfreeze is `requestWalletUnfreeze` (src/modules/approval). */
@Resolver(() => InvestorWallet)
export class WalletFreezeResolver {
  @Mutation(() => WalletFreeze, {
    description:
      "Ops (`operator`): freezes the wallet on the share class's token at once (T-REX `setAddressFrozen`), with a reason (required). From then on the gateway refuses the investor's redemptions and transfers of that class (409); unfreezing is a four-eyes request (`requestWalletUnfreeze`).",
  })
  freezeInvestorWallet(
    @Arg('investorId', () => ID) investorId: string,
    @Arg('chainId', () => String) chainId: string,
    @Arg('shareClassId', () => String) shareClassId: string,
    @Arg('reason', () => String) reason: string,
    @Ctx() ctx: ModuleContext<'investor'>,
  ): Promise<WalletFreeze> {
    return ctx.services.walletFreezes.freeze(ctx, { investorId, chainId, shareClassId, reason });
  }

  @FieldResolver(() => [WalletFreeze], {
    description: 'Ops: the share classes this wallet is frozen on (freezing, frozen, failed or unfreezing), oldest first',
  })
  freezes(@Root() wallet: InvestorWallet, @Ctx() ctx: ModuleContext<'investor'>): Promise<WalletFreeze[]> {
    ctx.access.requireOps();
    return heldFreezes(ctx.em, { walletId: wallet.id });
  }
}
