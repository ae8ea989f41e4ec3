import { useState } from 'react';
import { request } from '../api/client';
import { FreezeInvestorWalletDocument, RequestWalletUnfreezeDocument, WalletFreezesDocument } from '../generated/graphql';
import { ConfirmAction } from '../ui/confirm-action';
import { Field, Select } from '../ui/fields';
import { time } from '../ui/format';
import { Mono, Status } from '../ui/parts';
import { useApprovalsLive, useChainLive } from '../ui/use-chain-live';
import { useQuery } from '../ui/use-query';

interface WalletRow {
  chainId: string;
  address: string;
  status: string;
}

/**
 * Freezing a wallet on a share class's token from the investor's page (docs/approvals.md#freezing-a-wallet):
 * an operator freezes at once with a reason; unfreezing is a request another principal approves.
 * Each wallet row gets what it is frozen on (`cell`) and the two actions (`action`), each shown only
 * to a principal whose roles allow its mutation; the freezes are read again as their chain
 * transactions become final and as unfreeze requests are decided.
 */
export function useWalletFreezes(investorId: string, shareClasses: { id: string; meta: { name: string } }[]) {
  const q = useQuery(WalletFreezesDocument, { id: investorId }, investorId);
  const reload = () => void q.reload();
  useChainLive(reload, (tx) => tx.purpose === 'wallet.freeze' || tx.purpose === 'wallet.thaw');
  useApprovalsLive(reload, (c) => c.kind === 'wallet_unfreeze');
  const [shareClassId, setShareClassId] = useState('');
  const [reason, setReason] = useState('');
  const freezesOf = (w: WalletRow) =>
    q.data?.investor.wallets.find((x) => x.chainId === w.chainId && x.address.toLowerCase() === w.address.toLowerCase())?.freezes ?? [];
  const nameOf = (id: string) => shareClasses.find((s) => s.id === id)?.meta.name ?? id;

  const cell = (w: WalletRow) => {
    const freezes = freezesOf(w);
    if (!freezes.length) return '—';
    return (
      <ul className="plain">
        {freezes.map((f) => (
          <li key={f.id}>
            <Status value={f.status} /> on {nameOf(f.shareClassId)} <Mono>{f.shareClassId}</Mono>
            <div className="muted">
              {time(f.frozenAt)} by {f.frozenBy}: {f.reason}
            </div>
            {f.error && <div role="note">on chain: {f.error}</div>}
          </li>
        ))}
      </ul>
    );
  };

  const action = (w: WalletRow) => {
    if (w.status === 'removed') return null;
    const frozenOn = new Set(freezesOf(w).map((f) => f.shareClassId));
    const freezable = shareClasses.filter((s) => !frozenOn.has(s.id));
    return (
      <>
        {freezable.length > 0 && (
          <ConfirmAction
            operation="freezeInvestorWallet"
            label="Freeze…"
            danger
            title={`Freeze ${w.address}?`}
            description={
              <p>
                Frozen at once on the share class's token on chain {w.chainId} (T-REX setAddressFrozen): the gateway refuses this investor's redemptions and
                transfers of the class from now on. Unfreezing is a request another ops principal approves.
              </p>
            }
            fields={(af) => (
              <>
                <Select
                  label="Share class"
                  name="shareClassId"
                  value={shareClassId}
                  onChange={setShareClassId}
                  options={[['', 'Choose…'], ...freezable.map((s): [string, string] => [s.id, `${s.id} · ${s.meta.name}`])]}
                />
                <Field label="Reason" name="reason" value={reason} onChange={setReason} required autoFocus={af} placeholder="court seizure order" />
              </>
            )}
            run={() => request(FreezeInvestorWalletDocument, { investorId, chainId: w.chainId, shareClassId, reason })}
            onDone={() => (setShareClassId(''), setReason(''), reload())}
          />
        )}
        {freezesOf(w)
          .filter((f) => f.status === 'frozen' || f.status === 'failed')
          .map((f) => (
            <ConfirmAction
              key={f.id}
              operation="requestWalletUnfreeze"
              label={`Request unfreeze of ${f.shareClassId}…`}
              quiet
              title={`Request to unfreeze ${w.address} on ${nameOf(f.shareClassId)}?`}
              description={<p>Another ops principal approves it (Approvals); then the wallet is unfrozen on chain and may redeem and transfer again.</p>}
              fields={(af) => (
                <Field label="Reason" name="reason" value={reason} onChange={setReason} required autoFocus={af} placeholder="cleared by compliance" />
              )}
              run={() => request(RequestWalletUnfreezeDocument, { freezeId: f.id, reason })}
              onDone={() => (setReason(''), reload())}
            />
          ))}
      </>
    );
  };
  return { cell, action };
}
