import { useState } from 'react';
import { request } from '../api/client';
import { GrantShareClassDocument, RevokeShareClassDocument, type DeliveryMode, type DistributorDetailQuery } from '../generated/graphql';
import { time } from '../ui/format';
import { ActionForm } from '../ui/action-form';
import { ConfirmAction } from '../ui/confirm-action';
import { Select } from '../ui/fields';
import { Mono, Panel } from '../ui/parts';
import { Link } from '../ui/router';

type Detail = DistributorDetailQuery;

/** The share classes a distributor may sell, each with its delivery mode: granted and revoked here. */
export function DistributorGrants({
  distributor: d,
  shareClasses,
  onChange,
}: {
  distributor: Pick<Detail['distributor'], 'id' | 'name' | 'grants'>;
  shareClasses: Detail['shareClasses'];
  onChange: () => void;
}) {
  const [grantSc, setGrantSc] = useState('');
  const [mode, setMode] = useState<DeliveryMode>('passthrough');
  return (
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
                  onDone={onChange}
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
        onDone={() => (setGrantSc(''), onChange())}
      >
        <Select
          label="Share class"
          name="shareClass"
          value={grantSc}
          onChange={setGrantSc}
          options={[['', 'Choose…'], ...shareClasses.map((s): [string, string] => [s.id, `${s.id} · ${s.meta.name}`])]}
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
  );
}
