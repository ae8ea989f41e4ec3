import { useState } from 'react';
import { request } from '../api/client';
import { RegisterAtDateDocument, type RegisterAtDateQuery } from '../generated/graphql';
import { count, decimal } from '../ui/format';
import { ActionForm } from '../ui/action-form';
import { Field } from '../ui/fields';
import { downloadCsv } from '../ui/csv-download';
import { ErrorNote, Mono, Panel, RecordTable } from '../ui/parts';

/**
 * The register at the close of a day (docs/register.md): every holder with its balance, locked part
 * and wallets' balanceOf at the block that closes the day, and its CSV.
 */
export function RegisterAtDatePanel({ shareClassId }: { shareClassId: string }) {
  const [asOf, setAsOf] = useState('');
  const [register, setRegister] = useState<RegisterAtDateQuery['register'] | null>(null);
  const [csvError, setCsvError] = useState<string | null>(null);
  const download = async (day: string) =>
    setCsvError(
      await downloadCsv(
        `/ops/register.csv?shareClassId=${encodeURIComponent(shareClassId)}&asOf=${encodeURIComponent(day)}`,
        `register-${shareClassId}-${day}.csv`,
      ),
    );
  return (
    <Panel title="Register at a date">
      <ActionForm label="Show the register" submit={async () => setRegister((await request(RegisterAtDateDocument, { shareClassId, asOf })).register)}>
        <Field label="As of" name="asOf" type="date" value={asOf} onChange={(v) => (setAsOf(v), setRegister(null))} required />
      </ActionForm>
      {register && (
        <>
          <p>
            {count(register.holders.length, 'holder')}, {count(decimal(register.total), 'token')} at the close of {register.asOf} ({register.timeZone}), block{' '}
            {register.blockNumber ?? 'none'} on chain {register.chainId}.{' '}
            <button type="button" onClick={() => void download(register.asOf)}>
              Download CSV
            </button>
          </p>
          <ErrorNote error={csvError} />
          <RecordTable
            label={`Register at ${register.asOf}`}
            what="holders"
            records={register.holders}
            rowKey={(h) => h.investorId}
            empty="No holder."
            columns={[
              { header: 'Investor', cell: (h) => <Mono>{h.investorId}</Mono> },
              { header: 'Distributor', cell: (h) => <Mono>{h.distributorId}</Mono> },
              { header: 'Balance', cell: (h) => decimal(h.balance), num: true },
              { header: 'Locked', cell: (h) => decimal(h.locked), num: true },
              { header: 'On chain', cell: (h) => decimal(h.chainBalance), num: true },
              {
                header: 'Wallets',
                cell: (h) =>
                  h.wallets.map((w) => (
                    <div key={w.address}>
                      <span className="mono">{w.address}</span> {decimal(w.balance)}
                    </div>
                  )),
              },
            ]}
          />
        </>
      )}
    </Panel>
  );
}
