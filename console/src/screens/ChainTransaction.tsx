import type { ChainTxFragment } from '../generated/graphql';
import { Mono, Status } from '../ui/parts';

/** Where a transaction is on its way: status, depth against the depth its chain asks for, and why it failed. */
export function ChainTxState({ tx }: { tx: ChainTxFragment }) {
  const short = tx.hash ? `${tx.hash.slice(0, 10)}…${tx.hash.slice(-6)}` : null;
  return (
    <span className="chain-tx" data-tx-status={tx.status}>
      <Status value={tx.status} /> {tx.confirmations}/{tx.requiredConfirmations} confirmations
      {tx.blockNumber && <> · block {tx.blockNumber}</>}
      {short && <> · {tx.explorerUrl ? <a href={tx.explorerUrl}>{short}</a> : <Mono>{short}</Mono>}</>}
      {tx.revertReason && <span role="note"> · {tx.revertReason}</span>}
      {tx.lastError && <span className="muted"> · last problem: {tx.lastError}</span>}
    </span>
  );
}
