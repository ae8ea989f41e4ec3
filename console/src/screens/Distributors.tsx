import { useState } from 'react';
import { request } from '../api/client';
import {
  CreateDistributorDocument,
  RegisterInvestorDocument,
  UpdateDistributorDocument,
  DistributorDetailDocument,
  DistributorListDocument,
  SetDistributorWalletDocument,
} from '../generated/graphql';
import { time } from '../ui/format';
import { ActionForm, NewRecord } from '../ui/action-form';
import { EntityList } from '../ui/EntityList';
import { Field } from '../ui/fields';
import { ErrorNote, Facts, Loading, Mono, Page, Panel, Status } from '../ui/parts';
import { Link } from '../ui/router';
import { useQuery } from '../ui/use-query';
import { DistributorCredentials } from './DistributorCredentials';
import { DistributorGrants } from './DistributorGrants';
import { DistributorHosts } from './DistributorHosts';
import { DistributorChecklist } from './Onboarding';

export function DistributorList() {
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
      <EntityList
        doc={DistributorListDocument}
        page={(d) => d.distributors}
        pageSize={200}
        label="Distributors"
        what="distributors"
        empty="No distributors yet."
        link={{ section: 'distributors', header: 'Distributor' }}
        columns={[
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

export function DistributorDetail({ id }: { id: string }) {
  const q = useQuery(DistributorDetailDocument, { id, distributorId: id }, id);
  const [chainId, setChainId] = useState('');
  const [address, setAddress] = useState('');
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
      <DistributorGrants distributor={d} shareClasses={q.data.shareClasses} onChange={reload} />
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
      <DistributorCredentials distributor={d} credentials={credentials} onChange={reload} />
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
