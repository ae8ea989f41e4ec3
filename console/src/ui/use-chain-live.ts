import { useEffect, useRef } from 'react';
import { subscribe } from '../api/client';
import {
  ApprovalChangesDocument,
  ChainTransactionsFinalDocument,
  NavPublishedDocument,
  OrderUpdatesDocument,
  type ApprovalChangesSubscription,
  type ChainTransactionsFinalSubscription,
} from '../generated/graphql';

type Final = ChainTransactionsFinalSubscription['chainTransactionFinal'];
type Change = ApprovalChangesSubscription['approvalChanged'];

/** `reload` runs on each message of a subscription that `concerns` the screen; the latest callbacks are used, one socket per screen. */
function useLive<M>(subscribeTo: (next: (m: M) => void) => () => void, reload: () => unknown, concerns: (m: M) => boolean, on = true): void {
  const latest = useRef({ reload, concerns });
  latest.current = { reload, concerns };
  useEffect(() => (on ? subscribeTo((m) => latest.current.concerns(m) && void latest.current.reload()) : undefined), [on]);
}

/**
 * Keeps a screen that shows chain state true without a reload: `reload` runs whenever a chain
 * transaction becomes final (the gateway commits what it settled — a wallet whitelisted, a token
 * step, an order's mint — with it) and `concerns` says it is about what the screen shows.
 */
export function useChainLive(reload: () => unknown, concerns: (tx: Final) => boolean = () => true, on = true): void {
  useLive<Final>((next) => subscribe(ChainTransactionsFinalDocument, {}, (m) => next(m.chainTransactionFinal)), reload, concerns, on);
}

/** The same for approval requests: made, decided, executed or failed by anyone. */
export function useApprovalsLive(reload: () => unknown, concerns: (c: Change) => boolean = () => true, on = true): void {
  useLive<Change>((next) => subscribe(ApprovalChangesDocument, {}, (m) => next(m.approvalChanged)), reload, concerns, on);
}

/** The same for the book's figures: any order's move and any NAV published read them again. */
export function useBookLive(reload: () => unknown): void {
  useEffect(() => {
    const offOrders = subscribe(OrderUpdatesDocument, {}, () => void reload());
    const offNavs = subscribe(NavPublishedDocument, { shareClassId: null }, () => void reload());
    return () => (offOrders(), offNavs());
  }, [reload]);
}
