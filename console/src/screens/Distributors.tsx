import { useState } from 'react';
import { request } from '../api/client';
import {
  CreateDistributorDocument,
  RegisterInvestorDocument,
  UpdateDistributorDocument,
  DistributorDetailDocument,
  DistributorListDocument,
  GrantShareClassDocument,
  IssueApiCredentialDocument,
  RevokeApiCredentialDocument,
  RevokeShareClassDocument,
  RotateApiCredentialDocument,
  SetDistributorWalletDocument,
  type DeliveryMode,
  type IssueApiCredentialMutation,
} from '../generated/graphql';
import { time } from '../ui/format';
import { ActionForm, ConfirmAction, Field, NewRecord, Select } from '../ui/forms';
import { CopyButton, ErrorNote, Facts, Loading, Mono, Page, Panel, RecordTable, Status } from '../ui/parts';
import { Link } from '../ui/router';
import { useQuery } from '../ui/use-query';
import { DistributorHosts } from './DistributorHosts';
import { DistributorChecklist } from './Onboarding';

export function DistributorList() {
  const q = useQuery(DistributorListDocument, { page: { first: 200 } }, 'list');
  const [name, setName] = useState('');
  return (
    <Page title="Distributors">
      <NewRecord
        operation="createDistributor"
        title="New distributor"
        label="Create distributor"
        section="distributors"
        submit={() => request(CreateDistributorDocument, { input: { name } })}
      >
        <Field label="Name" name="name" value={name} onChange={setName} placeholder="Example Bank AG" />
      </NewRecord>
      <RecordTable
        label="Distributors"
        what="distributors"
        records={q.data?.distributors.items}
        error={q.error}
        rowKey={(d) => d.id}
        empty="No distributors yet."
        columns={[
          {
            header: 'Distributor',
            cell: (d) => (
              <Link to={['distributors', d.id]} className="mono">
                {d.id}
              </Link>
            ),
          },
          { header: 'Surface O', cell: (d) => d.partnerId, className: 'mono' },
          { header: 'Name', cell: (d) => d.name },
          { header: 'Status', cell: (d) => <Status value={d.status} /> },
          { header: 'Hosts (surface R)', cell: (d) => d.hosts.map((h) => h.hostname).join(', ') || '—' },
          { header: 'Share classes', cell: (d) => d.grants.length, num: true },
        ]}
      />
    </Page>
  );
}

type Issued = IssueApiCredentialMutation['issueApiCredential'];

export function DistributorDetail({ id }: { id: string }) {
  const q = useQuery(DistributorDetailDocument, { id, distributorId: id }, id);
  const [issued, setIssued] = useState<Issued | null>(null);
  const [chainId, setChainId] = useState('');
  const [address, setAddress] = useState('');
  const [grantSc, setGrantSc] = useState('');
  const [mode, setMode] = useState<DeliveryMode>('passthrough');
  // The checklist is read again whenever this screen changes something.
  const [version, setVersion] = useState(0);
  const reload = () => (setVersion((v) => v + 1), void q.reload());
  if (!q.data) return <Page title={`Distributor ${id}`}>{q.error ? <ErrorNote error={q.error} /> : <Loading what="the distributor" />}</Page>;
  const d = q.data.distributor;
  const credentials = q.data.apiCredentials;
  return (
    <Page
      title={
        <>
          {d.name} <Mono>{d.id}</Mono>
        </>
      }
      actions={<Link to={['distributors']}>← Distributors</Link>}
    >
      <ErrorNote error={q.error} />
      <DistributorChecklist id={d.id} version={version} />
      <div className="columns">
        <Panel title="Distributor">
          <Facts
            items={[
              ['Id', <Mono>{d.id}</Mono>],
              ['Surface O id', <Mono>{d.partnerId}</Mono>],
              ['Status', <Status value={d.status} />],
              ['Created', `${time(d.createdAt)} by ${d.createdBy}`],
            ]}
          />
          <EditDistributor distributor={d} onDone={reload} />
        </Panel>
        <DistributorHosts distributor={d} onChange={reload} />
      </div>
      <Panel title="Share classes it may sell">
        <table className="grid" aria-label="Grants">
          <thead>
            <tr>
              <th scope="col">Share class</th>
              <th scope="col">Delivery mode</th>
              <th scope="col">Since</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {d.grants.map((g) => (
              <tr key={g.shareClassId}>
                <td>
                  <Link to={['share-classes', g.shareClassId]}>{g.shareClass.meta.name}</Link> <Mono>{g.shareClassId}</Mono>
                </td>
                <td>{g.deliveryMode}</td>
                <td>{time(g.createdAt)}</td>
                <td>
                  <ConfirmAction
                    operation="revokeShareClass"
                    label="Revoke"
                    danger
                    title={`Stop ${d.name} selling ${g.shareClassId}?`}
                    description={<p>New orders of this share class through {d.name} are refused.</p>}
                    run={() => request(RevokeShareClassDocument, { input: { distributorId: d.id, shareClassId: g.shareClassId } })}
                    onDone={reload}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <ActionForm
          operation="grantShareClass"
          label="Grant"
          className="inline"
          submit={() => request(GrantShareClassDocument, { input: { distributorId: d.id, shareClassId: grantSc, deliveryMode: mode } })}
          onDone={() => (setGrantSc(''), reload())}
        >
          <Select
            label="Share class"
            name="shareClass"
            value={grantSc}
            onChange={setGrantSc}
            options={[['', 'Choose…'], ...q.data.shareClasses.map((s): [string, string] => [s.id, `${s.id} · ${s.meta.name}`])]}
          />
          <Select
            label="Delivery mode"
            name="deliveryMode"
            value={mode}
            onChange={(v) => setMode(v as DeliveryMode)}
            options={[
              ['passthrough', 'passthrough (investor wallet)'],
              ['hold', 'hold (distributor wallet)'],
            ]}
          />
        </ActionForm>
      </Panel>
      <Panel title="Wallets (hold delivery)">
        <ul className="plain">
          {d.wallets.map((w) => (
            <li key={w.chainId}>
              Chain {w.chainId}: <Mono>{w.address}</Mono>{' '}
              <span className="muted">
                set {time(w.updatedAt)} by {w.updatedBy}
              </span>
            </li>
          ))}
          {!d.wallets.length && <li className="muted">No wallet.</li>}
        </ul>
        <ActionForm
          operation="setDistributorWallet"
          label="Set wallet"
          className="inline"
          submit={() => request(SetDistributorWalletDocument, { input: { distributorId: d.id, chainId, address } })}
          onDone={() => (setChainId(''), setAddress(''), reload())}
        >
          <Field label="Chain id" name="chainId" value={chainId} onChange={setChainId} required placeholder="11155111" />
          <Field label="Address" name="address" value={address} onChange={setAddress} required placeholder="0x…" />
        </ActionForm>
      </Panel>
      <RegisterInvestor distributorId={d.id} onDone={reload} />
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
            onDone={(r) => (setIssued((r as IssueApiCredentialMutation).issueApiCredential), reload())}
          />
        }
      >
        {issued && <SecretOnce issued={issued} onDismiss={() => setIssued(null)} />}
        <table className="grid" aria-label="API credentials">
          <thead>
            <tr>
              <th scope="col">API key</th>
              <th scope="col">Issued</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {credentials.map((c) => (
              <tr key={c.apiKey}>
                <td className="mono">{c.apiKey}</td>
                <td>
                  {time(c.createdAt)} by {c.createdBy}
                </td>
                <td>{c.revokedAt ? <Status value={`revoked ${time(c.revokedAt)}`} /> : <Status value="active" />}</td>
                <td className="row-actions">
                  {!c.revokedAt && (
                    <>
                      <ConfirmAction
                        operation="rotateApiCredential"
                        quiet
                        label="Rotate"
                        title={`Rotate ${c.apiKey}?`}
                        description={<p>A new key and secret replace it; the old pair and every token it produced stop working at once.</p>}
                        run={() => request(RotateApiCredentialDocument, { apiKey: c.apiKey })}
                        onDone={(r) => (setIssued((r as { rotateApiCredential: Issued }).rotateApiCredential), reload())}
                      />
                      <ConfirmAction
                        operation="revokeApiCredential"
                        label="Revoke"
                        danger
                        title={`Revoke ${c.apiKey}?`}
                        description={<p>The key and every access and refresh token it produced stop working at once.</p>}
                        run={() => request(RevokeApiCredentialDocument, { apiKey: c.apiKey })}
                        onDone={reload}
                      />
                    </>
                  )}
                </td>
              </tr>
            ))}
            {!credentials.length && (
              <tr>
                <td colSpan={4} className="muted">
                  No credentials.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </Panel>
    </Page>
  );
}

function EditDistributor({ distributor, onDone }: { distributor: { id: string; name: string; status: string }; onDone: () => void }) {
  const [name, setName] = useState(distributor.name);
  const [status, setStatus] = useState(distributor.status);
  return (
    <ActionForm
      operation="updateDistributor"
      label="Save distributor"
      className="inline"
      submit={() => request(UpdateDistributorDocument, { id: distributor.id, input: { name, status } })}
      onDone={onDone}
    >
      <Field label="Name" name="name" value={name} onChange={setName} />
      <Field label="Status" name="status" value={status} onChange={setStatus} hint="active, or e.g. suspended (every door refuses it)" />
    </ActionForm>
  );
}

/**
 * An investor of this distributor, registered by ops as the distributor would over REST
 * (`POST /investor/register`, the same mutation); its grants and wallets are on its page.
 */
function RegisterInvestor({ distributorId, onDone }: { distributorId: string; onDone: () => void }) {
  const [externalInvestorId, setExternal] = useState('');
  const [email, setEmail] = useState('');
  const [countryCode, setCountry] = useState('');
  const [registered, setRegistered] = useState<string | null>(null);
  return (
    <Panel title="Register an investor">
      <ActionForm
        operation="registerInvestor"
        label="Register investor"
        className="inline"
        submit={() => request(RegisterInvestorDocument, { input: { distributorId, externalInvestorId, email, countryCode: countryCode || null } })}
        onDone={(r) => {
          setRegistered((r as { registerInvestor: { id: string } }).registerInvestor.id);
          setExternal('');
          setEmail('');
          setCountry('');
          onDone();
        }}
      >
        <Field label="External investor id" name="externalInvestorId" value={externalInvestorId} onChange={setExternal} placeholder="crm-42" />
        <Field label="E-mail" name="email" value={email} onChange={setEmail} placeholder="ada@example.com" />
        <Field label="Country" name="countryCode" value={countryCode} onChange={setCountry} placeholder="LU" />
      </ActionForm>
      {registered && (
        <p className="notice" role="status">
          Investor <Link to={['investors', registered]}>{registered}</Link> registered: grant it share classes and add its wallet on its page.
        </p>
      )}
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
