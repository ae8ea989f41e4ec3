import { useState } from 'react';
import { request } from '../api/client';
import { OpsDutiesDocument, OpsPrincipalsDocument, RequestOpsPrincipalDocument, RequestOpsRolesDocument, type OpsDutiesQuery } from '../generated/graphql';
import { time } from '../ui/format';
import { Field } from '../ui/fields';
import { may, useMe } from '../ui/me';
import { CopyButton, ErrorNote, Loading, Mono, Page, Panel, RecordTable } from '../ui/parts';
import { useQuery } from '../ui/use-query';

const ROLES = ['viewer', 'operator', 'approver', 'admin'] as const;

const RULES: Record<string, string> = {
  'second party': 'a second principal must take a step',
  'four-eyes request': 'requested by one principal, approved by another',
  'one principal': 'one principal may do it alone',
};

/** The ops principals (persons) and their roles; who may do what from the duty matrix; an admin's four-eyes requests. */
export function Principals() {
  const principals = useQuery(OpsPrincipalsDocument, {}, 'principals');
  const duties = useQuery(OpsDutiesDocument, {}, 'duties');
  const me = useMe();
  const [notice, setNotice] = useState<string | null>(null);
  const [tokenPart, setTokenPart] = useState<string | null>(null);
  return (
    <Page title="Principals">
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      {tokenPart && (
        <div className="notice" role="status">
          <p>
            First part of the new principal&apos;s token, shown this once: <Mono>{tokenPart}</Mono> <CopyButton text={tokenPart} />
          </p>
          <p>The approving admin&apos;s answer carries the other half; the token is this part followed by that one, so neither admin alone holds it.</p>
        </div>
      )}
      <Panel title="Principals">
        <RecordTable
          label="Ops principals"
          what="principals"
          records={principals.data?.opsPrincipals}
          error={principals.error}
          rowKey={(p) => p.id}
          empty="No ops principal exists."
          columns={[
            { header: 'Name', cell: (p) => p.name },
            { header: 'Roles', cell: (p) => p.roles.join(', ') || 'none' },
            { header: 'Created', cell: (p) => time(p.createdAt) },
            ...(may(me, 'requestOpsRoles')
              ? [
                  {
                    header: <span className="sr-only">Actions</span>,
                    className: 'row-actions',
                    cell: (p: { name: string; roles: string[] }) => <RoleChange name={p.name} roles={p.roles} onDone={(n) => setNotice(n)} />,
                  },
                ]
              : []),
          ]}
        />
      </Panel>
      <Panel title="Who may do what">
        <ErrorNote error={duties.error} />
        {duties.data ? <DutyMatrix rows={duties.data.opsDuties} /> : !duties.error && <Loading what="the duty matrix" />}
      </Panel>
      {may(me, 'requestOpsPrincipal') && (
        <Panel title="Request a principal">
          <RequestPrincipal
            onDone={(name, part) => {
              setNotice(`A new principal ${name} is requested; another admin approves it under Approvals.`);
              setTokenPart(part);
              void principals.reload();
            }}
          />
        </Panel>
      )}
    </Page>
  );
}

function DutyMatrix({ rows }: { rows: OpsDutiesQuery['opsDuties'] }) {
  return (
    <>
      {ROLES.map((role) => {
        const mine = rows.filter((r) => r.doneBy.some((d) => d.role === role));
        return (
          <section key={role} aria-label={`What ${role} may do`}>
            <h3>{role}</h3>
            {mine.length === 0 ? (
              <p className="muted">No action that moves tokens or changes the register ends with this role.</p>
            ) : (
              <ul>
                {mine.map((r) => (
                  <li key={r.action}>
                    {r.action} (
                    {r.doneBy
                      .filter((d) => d.role === role)
                      .map((d) => d.mutation)
                      .join(', ')}
                    ): {RULES[r.rule] ?? r.rule}
                    {r.rule !== 'one principal' && <span className="muted small"> — the other party: {r.other}</span>}
                  </li>
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </>
  );
}

function RoleBoxes({ legend, value, onChange }: { legend: string; value: string[]; onChange: (v: string[]) => void }) {
  return (
    <fieldset className="field">
      <legend>{legend}</legend>
      {ROLES.map((r) => (
        <label key={r}>
          <input type="checkbox" checked={value.includes(r)} onChange={(e) => onChange(e.target.checked ? [...value, r] : value.filter((x) => x !== r))} /> {r}
        </label>
      ))}
    </fieldset>
  );
}

/** Reason is required: the console says so before it asks the gateway. */
function needReason(reason: string): void {
  if (!reason.trim()) throw new Error('Give a reason: the approving admin reads it.');
}

function RequestPrincipal({ onDone }: { onDone: (name: string, tokenPart: string | null) => void }) {
  const [name, setName] = useState('');
  const [roles, setRoles] = useState<string[]>([]);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const submit = async () => {
    setError(null);
    try {
      if (!name.trim()) throw new Error('Give the new principal a name.');
      if (roles.length === 0) throw new Error('Choose at least one role.');
      needReason(reason);
      setBusy(true);
      const r = await request(RequestOpsPrincipalDocument, { name: name.trim(), roles, reason: reason.trim() });
      onDone(name.trim(), r.requestOpsPrincipal.tokenPart ?? null);
      setName('');
      setRoles([]);
      setReason('');
    } catch (err) {
      setError(err as Error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="action-form"
      aria-label="Request a principal"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <div className="form-fields">
        <Field label="Name" name="name" value={name} onChange={setName} required />
        <RoleBoxes legend="Roles" value={roles} onChange={setRoles} />
        <Field label="Reason" name="reason" value={reason} onChange={setReason} required />
      </div>
      <button type="submit" disabled={busy}>
        {busy ? 'Requesting…' : 'Request a principal'}
      </button>
      <ErrorNote error={error} />
    </form>
  );
}

function RoleChange({ name, roles: current, onDone }: { name: string; roles: string[]; onDone: (notice: string) => void }) {
  const [open, setOpen] = useState(false);
  const [roles, setRoles] = useState<string[]>(current);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  if (!open)
    return (
      <button type="button" onClick={() => setOpen(true)} aria-label={`Request role change for ${name}`}>
        Request role change
      </button>
    );
  const submit = async () => {
    setError(null);
    try {
      needReason(reason);
      setBusy(true);
      await request(RequestOpsRolesDocument, { name, roles, reason: reason.trim() });
      setOpen(false);
      setReason('');
      onDone(`A role change for ${name} (${roles.join(', ') || 'no role'}) is requested; another admin approves it under Approvals.`);
    } catch (err) {
      setError(err as Error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="action-form"
      aria-label={`Role change for ${name}`}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <div className="form-fields">
        <RoleBoxes legend={`Roles for ${name}`} value={roles} onChange={setRoles} />
        <Field label={`Reason for ${name}`} name="reason" value={reason} onChange={setReason} required />
      </div>
      <button type="submit" disabled={busy}>
        {busy ? 'Requesting…' : 'Send request'}
      </button>
      <button type="button" onClick={() => setOpen(false)}>
        Cancel
      </button>
      <ErrorNote error={error} />
    </form>
  );
}
