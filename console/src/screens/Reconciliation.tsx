import { useState } from 'react';
import { request } from '../api/client';
import { ReconciliationDocument, type ReconciliationQuery } from '../generated/graphql';
import { count, decimal } from '../ui/format';
import { ActionForm } from '../ui/action-form';
import { Facts, Mono, Panel, RecordTable } from '../ui/parts';
import { Link } from '../ui/router';

type Result = ReconciliationQuery['reconciliation'];

/**
 * The register against the chain, on demand: the gateway reads every balance at one block it
 * pins, so the figures agree with each other even while blocks keep coming.
 */
export function ReconciliationPanel({ shareClassId }: { shareClassId: string }) {
  const [result, setResult] = useState<Result | null>(null);
  return (
    <Panel title="Reconciliation with the chain">
      <ActionForm
        label="Reconcile now"
        busyLabel="Reading the chain…"
        submit={() => request(ReconciliationDocument, { shareClassId })}
        onDone={(r) => setResult((r as ReconciliationQuery).reconciliation)}
      >
        {null}
      </ActionForm>
      {result && <ReconciliationResult result={result} />}
    </Panel>
  );
}

const holder = (investorId: string | null | undefined) =>
  investorId ? (
    <Link to={['investors', investorId]} className="mono">
      {investorId}
    </Link>
  ) : (
    <span className="differs">unknown holder</span>
  );
const diff = (d: string) => (Number(d) === 0 ? '0' : <span className="differs">{decimal(d)}</span>);

function ReconciliationResult({ result: r }: { result: Result }) {
  const wallets = r.holders.flatMap((h) => h.wallets.map((w, i) => ({ ...w, h, first: i === 0 })));
  return (
    <section aria-label="Reconciliation result">
      <p className={r.differences.length || Number(r.supplyDifference) ? 'not-ready' : 'ready'} role="status">
        {r.differences.length || Number(r.supplyDifference)
          ? `At block ${r.blockNumber}: ${r.differences.length} of ${count(r.holdersCompared, 'holder')} ${r.differences.length === 1 ? 'differs' : 'differ'}; total supply differs from the register by ${decimal(r.supplyDifference)}.`
          : `At block ${r.blockNumber}: the register is true to the chain (${r.holdersCompared} ${r.holdersCompared === 1 ? 'holder' : 'holders'} compared).`}
      </p>
      <Facts
        items={[
          ['Pinned block', r.blockNumber],
          [
            'Token',
            <>
              <Mono>{r.tokenAddress}</Mono> on chain {r.chainId}
            </>,
          ],
          ['totalSupply', decimal(r.totalSupply)],
          ['Register total', decimal(r.registerTotal)],
          ['Supply difference', diff(r.supplyDifference)],
          ['Σ |difference| over holders', diff(r.totalDifference)],
        ]}
      />
      <RecordTable
        label="Balances by wallet"
        what="balances"
        records={wallets}
        rowKey={(w) => `${w.h.investorId ?? 'unknown'}:${w.address}`}
        empty="No holder and no wallet on this chain."
        columns={[
          { header: 'Holder', cell: (w) => (w.first ? holder(w.h.investorId) : '') },
          { header: 'Wallet', cell: (w) => w.address, className: 'mono' },
          { header: `balanceOf at ${r.blockNumber}`, cell: (w) => decimal(w.balance), num: true },
          { header: 'Register balance (holder)', cell: (w) => (w.first ? decimal(w.h.registerBalance) : ''), num: true },
          { header: 'Difference (holder)', cell: (w) => (w.first ? diff(w.h.difference) : ''), num: true },
        ]}
      />
      {r.differences.map((d) => (
        <section key={d.investorId ?? d.wallets.join()} aria-label={`Movements explaining ${d.investorId ?? d.wallets.join(', ')}`}>
          <h3>
            {holder(d.investorId)}: chain {decimal(d.chainBalance)} against register {decimal(d.registerBalance)} ({diff(d.difference)})
          </h3>
          <RecordTable
            label={`Movements of ${d.investorId ?? 'the unknown holder'}`}
            what="movements"
            records={d.movements.map((m, i) => ({ ...m, key: `${m.transactionHash}:${i}` }))}
            rowKey={(m) => m.key}
            empty="The chain follower saw no movement that explains it."
            columns={[
              { header: 'Block', cell: (m) => m.blockNumber, num: true },
              { header: 'Kind', cell: (m) => m.kind.replace('_', ' ') },
              { header: 'From', cell: (m) => m.fromInvestorId ?? m.fromAddress, className: 'mono' },
              { header: 'To', cell: (m) => m.toInvestorId ?? m.toAddress, className: 'mono' },
              { header: 'Tokens', cell: (m) => decimal(m.tokens), num: true },
              { header: 'Transaction', cell: (m) => `${m.transactionHash.slice(0, 10)}…`, className: 'mono' },
            ]}
          />
        </section>
      ))}
    </section>
  );
}
