import { useEffect, useState } from 'react';
import { ChainsDocument, type ChainsQuery } from '../generated/graphql';
import { Field, Select } from '../ui/fields';
import { ErrorNote } from '../ui/parts';
import { useQuery } from '../ui/use-query';

type ChainInfo = ChainsQuery['chains'][number];

/** The option for a chain the gateway does not speak to: what is typed for it is taken as given. */
const OTHER = 'other';

const label = (c: ChainInfo) => `${c.name} (${c.chainId})${c.writable ? '' : ', read only'}`;

/**
 * A chain picked from those the gateway is configured for, rather than typed: `writable` keeps
 * the chains it has an agent key for (a deployment signs there), preselected when there is one;
 * `other` adds "another chain", whose id is typed (a contract registered where the gateway does
 * not read; `otherLabel` says what is taken as given there). Whether the chosen chain fits is still the gateway's to say.
 */
export function useChainChoice({
  writable,
  other,
  otherLabel,
}: {
  writable: boolean;
  other: boolean;
  /** What the other-chain option says of the thing registered there. */ otherLabel?: string;
}) {
  const q = useQuery(ChainsDocument, {}, 'chains');
  const chains = (q.data?.chains ?? []).filter((c) => !writable || c.writable);
  const [choice, setChoice] = useState('');
  const [typed, setTyped] = useState('');
  // Once the chains arrive, a single candidate is the obvious answer.
  useEffect(() => {
    if (!choice && chains.length === 1) setChoice(chains[0].chainId);
  }, [chains.length]);
  const chainId = choice === OTHER ? typed.trim() : choice;
  const options: [string, string][] = [
    ...(chains.length === 1
      ? []
      : [
          [
            '',
            !q.data
              ? 'Reading the chains…'
              : chains.length || other
                ? 'Choose…'
                : writable
                  ? 'No chain with an agent key is configured'
                  : 'No chain is configured',
          ] as [string, string],
        ]),
    ...chains.map((c): [string, string] => [c.chainId, label(c)]),
    ...(other ? [[OTHER, otherLabel ?? 'Another chain (not read: the contract is taken as given)'] as [string, string]] : []),
  ];
  const fields = (
    <>
      {/* The gateway names `chainId` in its refusals: the field that holds it takes the name. */}
      <Select label="Chain" name={choice === OTHER ? 'chainChoice' : 'chainId'} value={choice} onChange={setChoice} options={options} />
      {choice === OTHER && <Field label="Chain id" name="chainId" value={typed} onChange={setTyped} required placeholder="8453" />}
      {q.error && <ErrorNote error={q.error} />}
    </>
  );
  return { chainId, fields };
}
