import { useState } from 'react';
import { request } from '../api/client';
import {
  CreateFundDocument,
  CreateIssuerDocument,
  IssuerDetailDocument,
  IssuerListDocument,
  UpdateFundDocument,
  UpdateIssuerDocument,
} from '../generated/graphql';
import { time } from '../ui/format';
import { ActionForm, NewRecord } from '../ui/action-form';
import { ConfirmAction } from '../ui/confirm-action';
import { EntityList } from '../ui/EntityList';
import { Field } from '../ui/fields';
import { ErrorNote, Facts, Loading, Mono, Page, Panel, RecordTable, Status } from '../ui/parts';
import { href, Link } from '../ui/router';
import { useQuery } from '../ui/use-query';

/** Issuers, newest first, and the form that starts onboarding: a new issuer. */
export function IssuerList() {
  const [name, setName] = useState('');
  const [lei, setLei] = useState('');
  const [jurisdiction, setJurisdiction] = useState('');
  return (
    <Page title="Issuers">
      <NewRecord
        operation="createIssuer"
        title="New issuer"
        label="Create issuer"
        section="issuers"
        input="CreateIssuerInput"
        submit={() => request(CreateIssuerDocument, { input: { name, lei: lei || null, jurisdiction: jurisdiction || null } })}
      >
        <Field label="Name" name="name" value={name} onChange={setName} placeholder="Example Asset Management S.A." />
        <Field label="LEI" name="lei" value={lei} onChange={setLei} placeholder="20 characters" hint="ISO 17442, check digits included" />
        <Field label="Jurisdiction" name="jurisdiction" value={jurisdiction} onChange={setJurisdiction} placeholder="LU" hint="ISO 3166 country code" />
      </NewRecord>
      <EntityList
        doc={IssuerListDocument}
        page={(d) => d.issuers}
        pageSize={200}
        label="Issuers"
        what="issuers"
        empty="No issuers yet."
        link={{ section: 'issuers', header: 'Issuer' }}
        columns={[
          { header: 'Name', cell: (i) => i.name },
          { header: 'LEI', cell: (i) => i.lei ?? '—', className: 'mono' },
          { header: 'Jurisdiction', cell: (i) => i.jurisdiction ?? '—' },
          { header: 'Funds', cell: (i) => i.funds.length, num: true },
          { header: 'Created', cell: (i) => time(i.createdAt) },
        ]}
      />
    </Page>
  );
}

/** One issuer: its fields (editable), its funds (create, edit) and their share classes. */
export function IssuerDetail({ id }: { id: string }) {
  const q = useQuery(IssuerDetailDocument, { id }, id);
  const reload = () => void q.reload();
  if (!q.data) return <Page title={`Issuer ${id}`}>{q.error ? <ErrorNote error={q.error} /> : <Loading what="the issuer" />}</Page>;
  const issuer = q.data.issuer;
  return (
    <Page
      title={
        <>
          {issuer.name} <Mono>{issuer.id}</Mono>
        </>
      }
      actions={<Link to={['issuers']}>← Issuers</Link>}
    >
      <div className="columns">
        <Panel title="Issuer">
          <Facts
            items={[
              ['LEI', issuer.lei],
              ['Jurisdiction', issuer.jurisdiction],
              ['Created', `${time(issuer.createdAt)} by ${issuer.createdBy}`],
              ['Updated', `${time(issuer.updatedAt)} by ${issuer.updatedBy}`],
            ]}
          />
          <EditIssuer issuer={issuer} onDone={reload} />
        </Panel>
        <Panel title="New fund">
          <NewFund issuerId={issuer.id} />
        </Panel>
      </div>
      <Panel title="Funds">
        <RecordTable
          label="Funds"
          what="funds"
          records={issuer.funds}
          rowKey={(f) => f.id}
          empty="No funds yet."
          columns={[
            { header: 'Fund', cell: (f) => f.id, className: 'mono' },
            { header: 'Name', cell: (f) => f.name },
            { header: 'Description', cell: (f) => f.description ?? '—', className: 'wrap' },
            {
              header: 'Share classes',
              cell: (f) => (
                <>
                  {f.shareClasses.map((s) => (
                    <span key={s.id}>
                      <Link to={['share-classes', s.id]}>{s.meta.name}</Link> <Status value={s.status} />{' '}
                    </span>
                  ))}
                  {!f.shareClasses.length && <span className="muted">none</span>}
                </>
              ),
            },
            {
              header: <span className="sr-only">Actions</span>,
              cell: (f) => (
                <>
                  <a href={href('share-classes', 'new', f.id)}>New share class</a>
                  <EditFund fund={f} onDone={reload} />
                </>
              ),
              className: 'row-actions',
            },
          ]}
        />
      </Panel>
    </Page>
  );
}

function EditIssuer({ issuer, onDone }: { issuer: { id: string; name: string; lei?: string | null; jurisdiction?: string | null }; onDone: () => void }) {
  const [name, setName] = useState(issuer.name);
  const [lei, setLei] = useState(issuer.lei ?? '');
  const [jurisdiction, setJurisdiction] = useState(issuer.jurisdiction ?? '');
  // An empty optional field clears it (UpdateIssuerInput).
  return (
    <ActionForm
      operation="updateIssuer"
      label="Save issuer"
      className="inline"
      submit={() => request(UpdateIssuerDocument, { id: issuer.id, input: { name, lei, jurisdiction } })}
      onDone={onDone}
    >
      <Field label="Name" name="name" value={name} onChange={setName} />
      <Field label="LEI" name="lei" value={lei} onChange={setLei} />
      <Field label="Jurisdiction" name="jurisdiction" value={jurisdiction} onChange={setJurisdiction} />
    </ActionForm>
  );
}

function NewFund({ issuerId }: { issuerId: string }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  return (
    <ActionForm
      operation="createFund"
      label="Create fund"
      input="CreateFundInput"
      submit={() => request(CreateFundDocument, { input: { issuerId, name, description: description || null } })}
      // The next step of onboarding: a share class of the new fund.
      onDone={(r) => (window.location.hash = href('share-classes', 'new', (r as { createFund: { id: string } }).createFund.id))}
    >
      <Field label="Fund name" name="name" value={name} onChange={setName} placeholder="Example Money Market Fund" />
      <Field label="Description" name="description" value={description} onChange={setDescription} />
    </ActionForm>
  );
}

function EditFund({ fund, onDone }: { fund: { id: string; name: string; description?: string | null }; onDone: () => void }) {
  const [name, setName] = useState(fund.name);
  const [description, setDescription] = useState(fund.description ?? '');
  return (
    <ConfirmAction
      operation="updateFund"
      quiet
      label="Edit"
      title={`Edit fund ${fund.id}`}
      description={<p>An empty description clears it.</p>}
      confirmLabel="Save fund"
      fields={(autoFocus) => (
        <>
          <Field label="Fund name" name="name" value={name} onChange={setName} autoFocus={autoFocus} />
          <Field label="Description" name="description" value={description} onChange={setDescription} />
        </>
      )}
      run={() => request(UpdateFundDocument, { id: fund.id, input: { name, description } })}
      onDone={onDone}
    />
  );
}
