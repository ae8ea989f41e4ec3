import { useState } from 'react';
import { request } from '../api/client';
import { GrantShareClassDocument, RevokeShareClassDocument, type DeliveryMode, type DistributorDetailQuery } from '../generated/graphql';
import { time } from '../ui/format';
import { ActionForm } from '../ui/action-form';
import { ConfirmAction } from '../ui/confirm-action';
import { Select } from '../ui/fields';
import { Mono, Panel, RecordTable } from '../ui/parts';
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
      <RecordTable
        label="Grants"
        what="grants"
        records={d.grants}
        rowKey={(g) => g.shareClassId}
        empty="No share class granted."
        columns={[
          {
            header: 'Share class',
            cell: (g) => (
              <>
                <Link to={['share-classes', g.shareClassId]}>{g.shareClass.meta.name}</Link> <Mono>{g.shareClassId}</Mono>
              </>
            ),
          },
          { header: 'Delivery mode', cell: (g) => g.deliveryMode },
          { header: 'Since', cell: (g) => time(g.createdAt) },
          {
            header: <span className="sr-only">Actions</span>,
            cell: (g) => (
              <ConfirmAction
                operation="revokeShareClass"
                label="Revoke"
                danger
                title={`Stop ${d.name} selling ${g.shareClass.meta.name}?`}
                description={<p>New orders of this share class through {d.name} are refused.</p>}
                run={() => request(RevokeShareClassDocument, { input: { distributorId: d.id, shareClassId: g.shareClassId } })}
                onDone={onChange}
              />
            ),
          },
        ]}
      />
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
