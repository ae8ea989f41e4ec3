import { useState } from 'react';
import { request } from '../api/client';
import {
  IssueApiCredentialDocument,
  RevokeApiCredentialDocument,
  RotateApiCredentialDocument,
  type DistributorDetailQuery,
  type IssueApiCredentialMutation,
} from '../generated/graphql';
import { time } from '../ui/format';
import { ConfirmAction } from '../ui/confirm-action';
import { CopyButton, Facts, Mono, Panel, RecordTable, Status } from '../ui/parts';

type Issued = IssueApiCredentialMutation['issueApiCredential'];

/** A distributor's surface-O key pairs: issued, rotated and revoked here; a new secret is shown once. */
export function DistributorCredentials({
  distributor: d,
  credentials,
  onChange,
}: {
  distributor: { id: string; name: string };
  credentials: DistributorDetailQuery['apiCredentials'];
  onChange: () => void;
}) {
  const [issued, setIssued] = useState<Issued | null>(null);
  const actions = (apiKey: string) => (
    <>
      <ConfirmAction
        operation="rotateApiCredential"
        quiet
        label="Rotate"
        title={`Rotate ${apiKey}?`}
        description={<p>A new key and secret replace it; the old pair and every token it produced stop working at once.</p>}
        run={() => request(RotateApiCredentialDocument, { apiKey })}
        onDone={(r) => (setIssued((r as { rotateApiCredential: Issued }).rotateApiCredential), onChange())}
      />
      <ConfirmAction
        operation="revokeApiCredential"
        label="Revoke"
        danger
        title={`Revoke ${apiKey}?`}
        description={<p>The key and every access and refresh token it produced stop working at once.</p>}
        run={() => request(RevokeApiCredentialDocument, { apiKey })}
        onDone={onChange}
      />
    </>
  );
  return (
    <Panel
      title="API credentials (surface O)"
      actions={
        <ConfirmAction
          operation="issueApiCredential"
          label="Issue credential"
          title={`Issue a key and secret for ${d.name}?`}
          description={<p>The secret is shown once, right after this; only a hash of it is kept.</p>}
          confirmLabel="Issue"
          run={() => request(IssueApiCredentialDocument, { distributorId: d.id })}
          onDone={(r) => (setIssued((r as IssueApiCredentialMutation).issueApiCredential), onChange())}
        />
      }
    >
      {issued && <SecretOnce issued={issued} onDismiss={() => setIssued(null)} />}
      <RecordTable
        label="API credentials"
        what="credentials"
        records={credentials}
        rowKey={(c) => c.apiKey}
        empty="No credentials."
        columns={[
          { header: 'API key', cell: (c) => c.apiKey, className: 'mono' },
          { header: 'Issued', cell: (c) => `${time(c.createdAt)} by ${c.createdBy}` },
          { header: 'Status', cell: (c) => (c.revokedAt ? <Status value={`revoked ${time(c.revokedAt)}`} /> : <Status value="active" />) },
          { header: <span className="sr-only">Actions</span>, cell: (c) => !c.revokedAt && actions(c.apiKey), className: 'row-actions' },
        ]}
      />
    </Panel>
  );
}

/** A just-issued secret: shown this once, with a copy button; gone when dismissed or on leaving the page. */
function SecretOnce({ issued, onDismiss }: { issued: Issued; onDismiss: () => void }) {
  return (
    <div className="secret" role="region" aria-label="New credential">
      <p>
        <strong>Copy the secret now: it is not shown again.</strong>
      </p>
      <Facts
        items={[
          [
            'API key',
            <>
              <Mono>{issued.apiKey}</Mono> <CopyButton text={issued.apiKey} label="Copy key" />
            </>,
          ],
          [
            'API secret',
            <>
              <Mono>{issued.apiSecret}</Mono> <CopyButton text={issued.apiSecret} label="Copy secret" />
            </>,
          ],
          ['Surface O id', <Mono>{issued.partnerId}</Mono>],
        ]}
      />
      <button type="button" onClick={onDismiss}>
        I have stored it
      </button>
    </div>
  );
}
