/**
 * `BENCH_MODULES=1`: the bench's token gets every compliance module the gateway binds (issue 46):
 * a rule set PROF (the factories' `eligibleInvestors`) allowing and blocking countries, with a
 * maximum holding and a supply cap far above what the bench mints, requested and approved, and
 * its intents confirmed on chain, before any token is minted. Without it the token has none, as
 * a class without a rule set.
 */
import { ChainIntentSequence, IntentSequenceStatus } from '../src/modules/chain/compliance-module.entity';
import { requestedAndApproved } from '../test/support/approval.factories';
import { eventually } from '../test/support/chain';
import type { TestGateway } from '../test/support/gateway';

export const WITH_MODULES = process.env.BENCH_MODULES === '1';

export async function bindAllModules(gw: TestGateway): Promise<void> {
  if (!WITH_MODULES) return;
  const { approved } = await requestedAndApproved(
    gw,
    `mutation($input: EligibilityRulesInput!) { requestEligibilityRules(input: $input) { id } }`,
    'requestEligibilityRules',
    {
      input: {
        code: 'PROF',
        reason: 'bench',
        allowedCountries: ['LU', 'DE', 'FR'],
        blockedCountries: ['US'],
        maxHoldingPerInvestor: '1000000000',
        supplyCap: '1000000000000',
      },
    },
  );
  if (approved?.body.data?.approveRequest?.status !== 'executed') throw new Error(`rule set not approved: ${JSON.stringify(approved?.body)}`);
  await eventually(
    'the compliance modules bound',
    async () => {
      const sequences = await gw.em().find(ChainIntentSequence, {});
      const failed = sequences.find((s) => s.status === IntentSequenceStatus.failed);
      if (failed) throw new Error(failed.error);
      return sequences.length > 0 && sequences.every((s) => s.status === IntentSequenceStatus.done);
    },
    300_000,
  );
}
