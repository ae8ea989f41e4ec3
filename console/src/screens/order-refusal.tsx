import { Panel } from '../ui/parts';
import { Link } from '../ui/router';

/*
 * Why an order failed, in words, at the top of its page. An eligibility refusal (a dealing date's
 * row of an investor who became ineligible since acceptance: src/modules/eligibility/eligibility.ts)
 * comes in the gateway's documented words, `investor <id> is not eligible for <shareClassId>: <reason>`;
 * the page says it as a sentence and links what to look at: the rule set it names, or the investor's KYC.
 */

const NOT_ELIGIBLE = /^investor (\S+) is not eligible for (\S+): (.+)$/;
const RULE_SET = /rule set ([A-Za-z0-9_-]+)/;

/** Other failures keep their reason among the order's facts ("Failure reason"). */
export function OrderRefusal({ reason, investorId }: { reason: string | null | undefined; investorId: string }) {
  const eligibility = reason ? NOT_ELIGIBLE.exec(reason) : null;
  if (!eligibility) return null;
  const ruleSet = RULE_SET.exec(eligibility[3])?.[1];
  const kyc = eligibility[3].startsWith('KYC');
  return (
    <Panel title="Refused for eligibility">
      <p role="note" className="not-ready">
        The investor may not subscribe to this share class: {eligibility[3]}. Nothing was sent on chain for it.{' '}
        {ruleSet && (
          <>
            The rules: <Link to={['eligibility', ruleSet]}>rule set {ruleSet}</Link>.
          </>
        )}
        {kyc && (
          <>
            The KYC is renewed on <Link to={['investors', investorId]}>the investor's page</Link>.
          </>
        )}
      </p>
    </Panel>
  );
}
