import { useState } from 'react';
import { request } from '../api/client';
import { RequestWalletRecoveryDocument, type InvestorDetailQuery } from '../generated/graphql';
import { may, useMe } from '../ui/me';
import { ActionForm } from '../ui/action-form';
import { Field } from '../ui/fields';
import { useApprovalsLive, useChainLive } from '../ui/use-chain-live';

type Wallet = InvestorDetailQuery['investor']['wallets'][number];

/** A wallet the gateway registered on chain (it holds the investor's identity there) and still in use: the one a recovery starts from. */
export const recoverable = (w: Wallet) => w.status !== 'removed' && !!w.onchainIdentity;

/**
 * Recovering a lost wallet from the investor's page: each recoverable wallet's row has a button
 * that opens the form under the table (one at a time, so the row stays readable); once the gateway
 * took it, the new wallet is followed — the page reads the investor again as the request is decided
 * and as each of the recovery's three chain transactions becomes final — until it is whitelisted or
 * its chain step failed.
 */
export function useWalletRecovery(investorId: string, wallets: Wallet[], reload: () => void) {
  const [lost, setLost] = useState<Wallet | null>(null);
  const [newAddress, setNewAddress] = useState('');
  const [reason, setReason] = useState('');
  const [following, setFollowing] = useState<{ chainId: string; address: string; from: string } | null>(null);
  const fresh =
    following && wallets.find((w) => w.chainId === following.chainId && w.address.toLowerCase() === following.address.toLowerCase() && w.status !== 'removed');
  const settled = !!fresh && (fresh.status === 'whitelisted' || !!fresh.chainError);
  const follow = !!following && !settled;
  useApprovalsLive(reload, (c) => c.kind === 'wallet_recovery', follow);
  useChainLive(reload, (tx) => tx.purpose.startsWith('wallet.'), follow);

  const formId = `recover-${investorId}`;
  // Requesting a recovery is an operator's; the approval is another person's (Approvals).
  const operator = may(useMe(), 'requestWalletRecovery');
  const action = (w: Wallet) =>
    operator &&
    recoverable(w) && (
      <button type="button" aria-expanded={lost?.address === w.address} aria-controls={formId} onClick={() => setLost(lost?.address === w.address ? null : w)}>
        Request recovery to a new wallet…
      </button>
    );

  const panel = (
    <>
      {lost && (
        <section id={formId} className="recovery" aria-label={`Recover ${lost.address}`}>
          <p>
            The investor lost the key of <span className="mono">{lost.address}</span> on chain {lost.chainId}: its tokens move to the new wallet (T-REX
            recovery, with the same identity). The lost wallet is removed at once; the new one reads pending until the chain confirmed the recovery. Holdings do
            not change.
          </p>
          <ActionForm
            operation="requestWalletRecovery"
            label="Request recovery"
            busyLabel="Requesting…"
            name={`Recover ${lost.address} to a new wallet`}
            className="inline"
            submit={() => request(RequestWalletRecoveryDocument, { input: { investorId, chainId: lost.chainId, newAddress: newAddress.trim(), reason } })}
            onDone={() => {
              // A request: it runs once another ops principal approves it (Approvals), after RECOVERY_DELAY_SECONDS.
              setFollowing({ chainId: lost.chainId, address: newAddress.trim(), from: lost.address });
              setLost(null);
              setNewAddress('');
              setReason('');
              reload();
            }}
          >
            <Field label="New wallet address" name="newAddress" value={newAddress} onChange={setNewAddress} required autoFocus placeholder="0x…" />
            <Field label="Reason" name="reason" value={reason} onChange={setReason} required placeholder="key lost" />
          </ActionForm>
          <button type="button" onClick={() => setLost(null)}>
            Cancel
          </button>
        </section>
      )}
      {following && (
        <p className="notice" role="status">
          {!fresh
            ? `Recovery of ${following.from} to ${following.address} requested: it runs once another ops principal approves it (Approvals)…`
            : fresh.chainError
              ? `Recovery to ${fresh.address} stopped on chain: ${fresh.chainError}`
              : fresh.status === 'whitelisted'
                ? `Recovered: ${fresh.address} is whitelisted and holds the tokens of ${following.from}.`
                : `Recovering ${following.from} to ${fresh.address}: ${fresh.status}, waiting for the chain…`}
        </p>
      )}
    </>
  );
  return { action, panel };
}
