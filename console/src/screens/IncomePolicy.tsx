import { useState } from 'react';
import { request } from '../api/client';
import { SetDistributionPolicyDocument, type IncomePayment, type IncomeTreatment } from '../generated/graphql';
import { ActionForm } from '../ui/action-form';
import { Select } from '../ui/fields';
import { may, useMe } from '../ui/me';
import { Link } from '../ui/router';

type Policy = { treatment: IncomeTreatment; payment?: IncomePayment | null };

/** The three policies a class can have, as one choice: how its income reaches the holders. */
const POLICIES: [string, string][] = [
  ['accumulating', 'Accumulating: income stays in the NAV'],
  ['distributing/reinvest', 'Distributing, reinvested: new tokens at the pay date’s NAV'],
  ['distributing/cash', 'Distributing, in cash: owed to the holder’s distributor'],
];
const keyOf = (p: Policy) => (p.payment ? `${p.treatment}/${p.payment}` : p.treatment);
export const policyWords = (p: Policy) => POLICIES.find(([k]) => k === keyOf(p))?.[1] ?? keyOf(p);

/**
 * A share class's income policy: the one the gateway distributes by (`setDistributionPolicy`),
 * the only one the console shows or sets (the description's free-text `distributionPolicy` is not
 * offered: it decides nothing). A principal who may not set it reads it.
 */
export function IncomePolicy({ shareClassId, policy, onSaved }: { shareClassId: string; policy: Policy; onSaved: () => void }) {
  const me = useMe();
  const [choice, setChoice] = useState(keyOf(policy));
  if (!may(me, 'setDistributionPolicy'))
    return (
      <p>
        Income policy: <strong>{policyWords(policy)}</strong>
      </p>
    );
  const [treatment, payment] = choice.split('/') as [IncomeTreatment, IncomePayment | undefined];
  return (
    <ActionForm
      label="Save income policy"
      operation="setDistributionPolicy"
      blocked={choice === keyOf(policy)}
      submit={() => request(SetDistributionPolicyDocument, { shareClassId, treatment, payment: payment ?? null })}
      onDone={onSaved}
    >
      <Select label="Income policy" options={POLICIES} value={choice} onChange={setChoice} />
    </ActionForm>
  );
}

/** The policy as a fact of the share class's page, set on the Distributions page. */
export function IncomePolicyFact({ shareClassId, policy }: { shareClassId: string; policy: Policy }) {
  return (
    <>
      {policyWords(policy)} (<Link to={['distributions', shareClassId]}>Distributions</Link>)
    </>
  );
}
