import { useState } from 'react';
import { request } from '../api/client';
import { AddDistributorHostDocument, BindDistributorHostDocument, RemoveDistributorHostDocument, type DistributorDetailQuery } from '../generated/graphql';
import { time } from '../ui/format';
import { ActionForm } from '../ui/action-form';
import { ConfirmAction } from '../ui/confirm-action';
import { Field } from '../ui/fields';
import { Mono, Panel } from '../ui/parts';

type Host = DistributorDetailQuery['distributor']['hosts'][number];

/**
 * The surface-R hostnames of a distributor and what each is bound to. Outside development a host
 * bound to nothing is refused, so the binding is edited right where the host is listed.
 */
export function DistributorHosts({ distributor, onChange }: { distributor: { id: string; name: string; hosts: Host[] }; onChange: () => void }) {
  const [hostname, setHostname] = useState('');
  const d = distributor;
  return (
    <Panel title="Hosts (surface R)">
      <ul className="plain hosts">
        {d.hosts.map((h) => (
          <li key={h.hostname} data-hostname={h.hostname}>
            <p>
              <Mono>{h.hostname}</Mono> <span className="muted">since {time(h.createdAt)}</span> <BindingSummary host={h} />{' '}
              <ConfirmAction
                operation="removeDistributorHost"
                label="Remove"
                danger
                title={`Unmap ${h.hostname}?`}
                description={<p>Surface-R requests arriving on this hostname stop reaching {d.name}; they answer 403.</p>}
                run={() => request(RemoveDistributorHostDocument, { hostname: h.hostname })}
                onDone={onChange}
              />
            </p>
            <HostBindingForm host={h} onDone={onChange} />
          </li>
        ))}
      </ul>
      <ActionForm
        operation="addDistributorHost"
        label="Add host"
        className="inline"
        submit={() => request(AddDistributorHostDocument, { input: { distributorId: d.id, hostname } })}
        onDone={() => (setHostname(''), onChange())}
      >
        <Field label="Hostname" name="hostname" value={hostname} onChange={setHostname} placeholder="api.partner.example" />
      </ActionForm>
    </Panel>
  );
}

/** What a host is bound to, in words; an unbound host is refused outside development. */
function BindingSummary({ host }: { host: Host }) {
  const parts = [
    ...(host.sourceRanges.length ? [`from ${host.sourceRanges.join(', ')}`] : []),
    ...(host.clientCertSha256 ? [`client certificate sha256 ${host.clientCertSha256.slice(0, 16)}…`] : []),
  ];
  return (
    <span className="muted binding" data-bound={String(parts.length > 0)}>
      {parts.length ? `bound ${parts.join(' and ')}` : 'unbound: refused outside development'}
    </span>
  );
}

/**
 * The binding as typed: ranges separated by commas or spaces. The gateway checks every entry
 * (its message names the field, which the form then marks and focuses); a refusal keeps the text.
 */
function HostBindingForm({ host, onDone }: { host: Host; onDone: () => void }) {
  const [ranges, setRanges] = useState(host.sourceRanges.join(', '));
  const [fingerprint, setFingerprint] = useState(host.clientCertSha256 ?? '');
  const [saved, setSaved] = useState<string | null>(null);
  return (
    <>
      <ActionForm
        operation="bindDistributorHost"
        label="Save binding"
        name={`Binding of ${host.hostname}`}
        className="inline"
        submit={() => {
          setSaved(null);
          const sourceRanges = ranges.split(/[\s,]+/).filter(Boolean);
          return request(BindDistributorHostDocument, { input: { hostname: host.hostname, sourceRanges, clientCertSha256: fingerprint.trim() || null } });
        }}
        onDone={(r) => {
          const b = (r as { bindDistributorHost: Host }).bindDistributorHost;
          setRanges(b.sourceRanges.join(', '));
          setFingerprint(b.clientCertSha256 ?? '');
          setSaved(`Binding of ${b.hostname} saved by ${b.updatedBy}.`);
          onDone();
        }}
      >
        <Field
          label="Source ranges"
          name="sourceRanges"
          value={ranges}
          onChange={setRanges}
          placeholder="203.0.113.0/24, 2001:db8::/32"
          hint="Empty: any address"
        />
        <Field
          label="Client certificate SHA-256"
          name="clientCertSha256"
          value={fingerprint}
          onChange={setFingerprint}
          placeholder="64 hex digits, colons allowed"
          hint="Empty: none required"
        />
      </ActionForm>
      {saved && (
        <p className="notice" role="status">
          {saved}
        </p>
      )}
    </>
  );
}
