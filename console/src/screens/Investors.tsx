import { useState } from 'react';
import { request } from '../api/client';
import {
  AddInvestorWalletDocument,
  GrantInvestorShareClassDocument,
  InvestorDetailDocument,
  InvestorSearchDocument,
  RemoveInvestorWalletDocument,
  RevokeInvestorShareClassDocument,
  WhitelistInvestorWalletDocument,
  type InvestorFilter,
} from '../generated/graphql';
import { time } from '../ui/format';
import { ActionForm } from '../ui/action-form';
import { ConfirmAction } from '../ui/confirm-action';
import { EntityList } from '../ui/EntityList';
import { Field, Select } from '../ui/fields';
import { ErrorNote, Facts, Loading, Mono, Page, Panel, RecordTable, Status } from '../ui/parts';
import { Link } from '../ui/router';
import { useChainLive } from '../ui/use-chain-live';
import { useQuery } from '../ui/use-query';
import { useWalletRecovery } from './WalletRecovery';
import { useWalletFreezes } from './WalletFreeze';
import { useChainChoice } from './ChainChoice';
import { InvestorIncome } from './InvestorIncome';
import { InvestorKycPanel } from './InvestorKyc';
import { InvestorPositionsPanels } from './Positions';

/** Investors by e-mail (exact, any case) or the distributor's own id for them; newest first when nothing is searched. */
export function InvestorList() {
  return (
    <Page title="Investors">
      <EntityList
        doc={InvestorSearchDocument}
        page={(d) => d.investors}
        pageSize={100}
        search={{
          name: 'Search investors',
          label: 'E-mail or external id',
          placeholder: 'ada@example.com / crm-42',
          filter: (t): InvestorFilter => (t.includes('@') ? { email: t } : { externalInvestorId: t }),
        }}
        label="Investors"
        what="investors"
        empty="No investor matches."
        link={{ section: 'investors', header: 'Investor' }}
        columns={[
          { header: 'Surface O', cell: (i) => i.userId, className: 'mono' },
          { header: 'E-mail', cell: (i) => i.email ?? '—' },
          { header: 'External id', cell: (i) => i.externalInvestorId ?? '—' },
          { header: 'Name', cell: (i) => i.name ?? '—' },
          { header: 'Distributor', cell: (i) => <Link to={['distributors', i.distributorId]}>{i.distributor.name}</Link> },
          { header: 'Status', cell: (i) => <Status value={i.status} /> },
          { header: 'Registered', cell: (i) => time(i.createdAt) },
        ]}
      />
    </Page>
  );
}

export function InvestorDetail({ id }: { id: string }) {
  const q = useQuery(InvestorDetailDocument, { id }, id);
  const [grantSc, setGrantSc] = useState('');
  // A wallet may be on a chain the gateway does not read (kept as given), hence "another chain".
  const walletChain = useChainChoice({
    writable: false,
    other: true,
    otherLabel: 'Another chain (not read: the wallet is kept as given, not whitelisted on chain)',
  });
  const [address, setAddress] = useState('');
  const [whitelisted, setWhitelisted] = useState('no');
  const [reason, setReason] = useState('');
  const reload = () => void q.reload();
  // A wallet turns whitelisted (or its registration fails) when its chain transactions become final.
  useChainLive(reload, (tx) => tx.purpose.startsWith('wallet.'));
  const recovery = useWalletRecovery(id, q.data?.investor.wallets ?? [], reload);
  const freezes = useWalletFreezes(id, q.data?.investor.grantedShareClasses ?? []);
  if (!q.data) return <Page title={`Investor ${id}`}>{q.error ? <ErrorNote error={q.error} /> : <Loading what="the investor" />}</Page>;
  const inv = q.data.investor;
  // The gateway keeps one wallet in use (not removed) per investor and chain: said before a submit it would refuse.
  const inUse = inv.wallets.find((w) => w.chainId === walletChain.chainId && w.status !== 'removed');
  const grantable = inv.distributor.grants.filter((g) => !inv.grantedShareClasses.some((s) => s.id === g.shareClassId));
  const walletActions = (w: (typeof inv.wallets)[number]) => (
    <>
      {w.status === 'pending' && (
        <ConfirmAction
          operation="whitelistInvestorWallet"
          label="Whitelist"
          title={`Whitelist ${w.address}?`}
          description={
            <p>
              Confirms the investor's identity for this wallet on chain {w.chainId}: settlements may deliver to it. On a chain the gateway writes to, it creates
              the investor's ONCHAINID identity with a KYC claim and registers it in the tokens' identity registry; the wallet reads pending until that is
              confirmed.
            </p>
          }
          run={() => request(WhitelistInvestorWalletDocument, { input: { investorId: inv.id, chainId: w.chainId } })}
          onDone={reload}
        />
      )}
      {w.status !== 'removed' && (
        <ConfirmAction
          operation="removeInvestorWallet"
          label="Remove"
          danger
          title={`Remove ${w.address}?`}
          description={
            <p>
              It leaves the whitelist for good (kept for the record with the reason); the chain is free for another wallet. On a chain the gateway writes to, it
              is frozen on every token and its identity deleted from the registry.
            </p>
          }
          fields={(af) => <Field label="Reason" name="reason" value={reason} onChange={setReason} required autoFocus={af} placeholder="compromised" />}
          run={() => request(RemoveInvestorWalletDocument, { input: { investorId: inv.id, chainId: w.chainId, reason } })}
          onDone={() => (setReason(''), reload())}
        />
      )}
      {recovery.action(w)}
      {freezes.action(w)}
    </>
  );
  return (
    <Page
      title={
        <>
          {inv.name ?? inv.email ?? inv.id} <Mono>{inv.id}</Mono>
        </>
      }
      actions={<Link to={['investors']}>← Investors</Link>}
    >
      <div className="columns">
        <Panel title="Investor">
          <Facts
            items={[
              [
                'Id',
                <>
                  <Mono>{inv.id}</Mono> / <Mono>{inv.userId}</Mono>
                </>,
              ],
              ['E-mail', inv.email],
              ['External id', inv.externalInvestorId],
              ['Name', inv.name],
              ['Country', inv.countryCode],
              ['Status', <Status value={inv.status} />],
              [
                'Distributor',
                <>
                  <Link to={['distributors', inv.distributorId]}>{inv.distributor.name}</Link> <Mono>{inv.distributorId}</Mono>
                </>,
              ],
              ['Registered', `${time(inv.createdAt)} by ${inv.createdBy}`],
            ]}
          />
        </Panel>
        <Panel title="Share classes granted">
          <ul className="plain">
            {inv.grantedShareClasses.map((s) => (
              <li key={s.id}>
                <Link to={['share-classes', s.id]}>{s.meta.name}</Link> <Mono>{s.id}</Mono>{' '}
                <ConfirmAction
                  operation="revokeInvestorShareClass"
                  label="Revoke"
                  danger
                  title={`Withdraw ${s.meta.name} from this investor?`}
                  description={<p>New orders of this share class by this investor are refused.</p>}
                  run={() => request(RevokeInvestorShareClassDocument, { input: { investorId: inv.id, shareClassId: s.id } })}
                  onDone={reload}
                />
              </li>
            ))}
            {!inv.grantedShareClasses.length && <li className="muted">None.</li>}
          </ul>
          <ActionForm
            operation="grantInvestorShareClass"
            label="Grant"
            className="inline"
            submit={() => request(GrantInvestorShareClassDocument, { input: { investorId: inv.id, shareClassId: grantSc } })}
            onDone={() => (setGrantSc(''), reload())}
          >
            <Select
              label="Share class"
              name="shareClass"
              value={grantSc}
              onChange={setGrantSc}
              options={[['', 'Choose…'], ...grantable.map((g): [string, string] => [g.shareClassId, `${g.shareClassId} · ${g.shareClass.meta.name}`])]}
            />
          </ActionForm>
        </Panel>
      </div>
      <InvestorKycPanel investor={inv} onChange={reload} key={`${inv.kycVerifiedAt}-${inv.kycExpiresAt}`} />
      <InvestorPositionsPanels investorId={inv.id} />
      <Panel title="Wallets">
        <div className="table-wrap">
          <RecordTable
            label="Wallets"
            what="wallets"
            records={inv.wallets}
            rowKey={(w) => `${w.chainId}-${w.address}-${w.createdAt}`}
            empty="No wallet."
            columns={[
              { header: 'Chain', cell: (w) => w.chainId },
              { header: 'Address', cell: (w) => w.address, className: 'mono break-any' },
              {
                header: 'Status',
                cell: (w) => (
                  <>
                    <Status value={w.status} />
                    {w.onchainIdentity && (
                      <div className="muted">
                        identity <span className="mono">{w.onchainIdentity}</span>
                      </div>
                    )}
                    {w.chainError && <div role="note">on chain: {w.chainError}</div>}
                  </>
                ),
                // The identity's address breaks where it must: the row stays within the panel at 1,280 px.
                className: 'break-any',
              },
              { header: 'Whitelisted', cell: (w) => time(w.whitelistedAt) },
              // A removal's reason may be long (a recovery names the new wallet): it wraps rather than push the actions off the panel.
              { header: 'Removed', cell: (w) => (w.removedAt ? `${time(w.removedAt)}: ${w.removalReason ?? ''}` : '—'), className: 'reason' },
              { header: 'Frozen on', cell: (w) => freezes.cell(w), className: 'reason' },
              // A wallet has up to five actions: they wrap within the row rather than run off the panel at 1,280 px.
              { header: <span className="sr-only">Actions</span>, cell: (w) => walletActions(w), className: 'row-actions stack' },
            ]}
          />
        </div>
        {recovery.panel}
        <ActionForm
          operation="addInvestorWallet"
          label="Add wallet"
          className="inline"
          blocked={!!inUse}
          submit={() =>
            request(AddInvestorWalletDocument, { input: { investorId: inv.id, chainId: walletChain.chainId, address, whitelisted: whitelisted === 'yes' } })
          }
          onDone={() => (setAddress(''), setWhitelisted('no'), reload())}
        >
          {walletChain.fields}
          {inUse && (
            <p role="note" className="field-note">
              One wallet per chain: <span className="mono">{inUse.address}</span> is this investor's on chain {inUse.chainId}. To change it, request its
              recovery to a new wallet (its tokens move), or remove it first. {recovery.action(inUse)}
            </p>
          )}
          <Field label="Address" name="address" value={address} onChange={setAddress} required placeholder="0x…" />
          <Select
            label="Whitelist now"
            name="whitelisted"
            value={whitelisted}
            onChange={setWhitelisted}
            options={[
              ['no', 'No: pending'],
              ['yes', 'Yes: identity verified'],
            ]}
          />
        </ActionForm>
      </Panel>
      <InvestorIncome investorId={inv.id} />
    </Page>
  );
}
