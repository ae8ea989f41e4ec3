import { useEffect, useRef } from 'react';
import { subscribe } from '../api/client';
import { ChainTransactionsFinalDocument, type ChainTransactionsFinalSubscription } from '../generated/graphql';

type Final = ChainTransactionsFinalSubscription['chainTransactionFinal'];

/**
 * Keeps a screen that shows chain state true without a reload: `reload` runs whenever a chain
 * transaction becomes final (the gateway commits what it settled — a wallet whitelisted, a token
 * step, an order's mint — with it) and `concerns` says it is about what the screen shows.
 */
export function useChainLive(reload: () => unknown, concerns: (tx: Final) => boolean = () => true): void {
  const latest = useRef({ reload, concerns });
  latest.current = { reload, concerns };
  useEffect(() => subscribe(ChainTransactionsFinalDocument, {}, (m) => latest.current.concerns(m.chainTransactionFinal) && void latest.current.reload()), []);
}
