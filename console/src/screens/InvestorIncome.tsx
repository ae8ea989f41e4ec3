import { InvestorIncomeDocument } from '../generated/graphql';
import { count, time } from '../ui/format';
import { ErrorNote, Loading, Mono, Panel, RecordTable, Status } from '../ui/parts';
import { useQuery } from '../ui/use-query';

/** An investor's income (docs/income.md): each distribution's entitlement and how it was paid, newest pay date first. */
export function InvestorIncome({ investorId }: { investorId: string }) {
  const q = useQuery(InvestorIncomeDocument, { investorId }, investorId);
  if (!q.data) return <Panel title="Income">{q.error ? <ErrorNote error={q.error} /> : <Loading what="the income" />}</Panel>;
  return (
    <Panel title="Income">
      <div className="table-wrap">
        <RecordTable
          label="Income"
          what="the income"
          records={q.data.incomeHistory}
          rowKey={(r) => r.distributionId}
          empty="No income yet."
          columns={[
            { header: 'Pay date', cell: (r) => r.payDate },
            { header: 'Share class', cell: (r) => <Mono>{r.shareClassId}</Mono> },
            { header: 'Period', cell: (r) => (r.periodFrom === r.periodTo ? `record date ${r.periodTo}` : `${r.periodFrom} – ${r.periodTo}`) },
            { header: 'Paid as', cell: (r) => r.payment },
            { header: 'Entitled', cell: (r) => `${r.gross} ${r.currency}` },
            {
              header: 'Paid',
              cell: (r) => (
                <>
                  {r.amount ? `${r.amount} ${r.currency}` : '—'}
                  {r.tokens && <div className="muted">{count(r.tokens, 'token')}</div>}
                  {r.transferHash && (
                    <div className="muted">
                      <span className="mono">{r.transferHash}</span>
                    </div>
                  )}
                </>
              ),
            },
            {
              header: 'Status',
              cell: (r) => (
                <>
                  <Status value={r.status} />
                  {r.paidAt && <div className="muted">{time(r.paidAt)}</div>}
                  {r.failureReason && <div role="note">{r.failureReason}</div>}
                </>
              ),
            },
          ]}
        />
      </div>
    </Panel>
  );
}
