import { InvestorIncomeDocument } from '../generated/graphql';
import { time } from '../ui/format';
import { ErrorNote, Loading, Mono, Panel, Status } from '../ui/parts';
import { useQuery } from '../ui/use-query';

/** An investor's income (docs/income.md): each distribution's entitlement and how it was paid, newest pay date first. */
export function InvestorIncome({ investorId }: { investorId: string }) {
  const q = useQuery(InvestorIncomeDocument, { investorId }, investorId);
  if (!q.data) return <Panel title="Income">{q.error ? <ErrorNote error={q.error} /> : <Loading what="the income" />}</Panel>;
  const rows = q.data.incomeHistory;
  return (
    <Panel title="Income">
      <div className="table-wrap">
        <table className="grid" aria-label="Income">
          <thead>
            <tr>
              <th scope="col">Pay date</th>
              <th scope="col">Share class</th>
              <th scope="col">Period</th>
              <th scope="col">Paid as</th>
              <th scope="col">Entitled</th>
              <th scope="col">Paid</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.distributionId}>
                <td>{r.payDate}</td>
                <td>
                  <Mono>{r.shareClassId}</Mono>
                </td>
                <td>{r.periodFrom === r.periodTo ? `record date ${r.periodTo}` : `${r.periodFrom} – ${r.periodTo}`}</td>
                <td>{r.payment}</td>
                <td>
                  {r.gross} {r.currency}
                </td>
                <td>
                  {r.amount ? `${r.amount} ${r.currency}` : '—'}
                  {r.tokens && <div className="muted">{r.tokens} tokens</div>}
                  {r.transferHash && (
                    <div className="muted">
                      <span className="mono">{r.transferHash}</span>
                    </div>
                  )}
                </td>
                <td>
                  <Status value={r.status} />
                  {r.paidAt && <div className="muted">{time(r.paidAt)}</div>}
                  {r.failureReason && <div role="note">{r.failureReason}</div>}
                </td>
              </tr>
            ))}
            {!rows.length && (
              <tr>
                <td colSpan={7} className="muted">
                  No income yet.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}
