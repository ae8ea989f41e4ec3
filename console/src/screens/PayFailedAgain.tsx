import { request } from '../api/client';
import { RetryDistributionPaymentsDocument } from '../generated/graphql';
import { ConfirmAction } from '../ui/confirm-action';
import { count } from '../ui/format';

/** A reinvestment's failed rows sent again once ops fixed their cause (docs/income.md, "Paying the failed rows again"). */
export function PayFailedAgain({ id, failed, onSent }: { id: string; failed: number; onSent: () => void }) {
  return (
    <ConfirmAction
      operation="retryDistributionPayments"
      label="Pay the failed rows again"
      title={`Pay the failed rows of ${id} again`}
      description={
        <p>
          {count(failed, 'row has', 'rows have')} failed. Each is minted again to its investor&apos;s whitelisted wallet, at the tokens priced at payment; a row
          whose investor still has no whitelisted wallet stays failed.
        </p>
      }
      confirmLabel="Pay again"
      run={() => request(RetryDistributionPaymentsDocument, { id })}
      onDone={onSent}
    />
  );
}
