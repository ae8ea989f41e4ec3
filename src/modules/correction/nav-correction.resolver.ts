import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { DecimalScalar } from '../../common/scalars';
import { NavCorrectionPreviewView } from './nav-correction.types';

/** Correcting a confirmed NAV (nav-correction.ts): the preview first, then a four-eyes request. */
@Resolver()
export class NavCorrectionResolver {
  @Query(() => NavCorrectionPreviewView, {
    description:
      "Ops: what correcting the NAV (`Nav.id`) to `close` would do, before it is requested: the orders priced at it and not settled, re-priced; the orders settled at it, each with the tokens the corrected close gives minus those that moved, the error in bps and, above the share class's tolerance, what approval books (mint, burn or cash). Nothing is written.",
  })
  async navCorrectionPreview(
    @Arg('navId', () => ID) navId: string,
    @Arg('close', () => DecimalScalar) close: string,
    @Ctx() ctx: ModuleContext<'correction'>,
  ): Promise<NavCorrectionPreviewView> {
    const plan = await ctx.services.navCorrections.preview(ctx, navId, close);
    return {
      navId: String(plan.nav.id),
      shareClassId: plan.shareClassId,
      entryId: plan.nav.entryId,
      publishedAt: plan.nav.publishedAt,
      currency: plan.nav.currency,
      close: String(plan.nav.close),
      correctedClose: plan.correctedClose,
      errorBps: plan.errorBps,
      toleranceBps: plan.toleranceBps,
      aboveTolerance: plan.aboveTolerance,
      repricings: plan.repricings,
      compensations: plan.compensations,
    };
  }
}
