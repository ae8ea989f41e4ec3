import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

/** A graphql-ws client of a gateway (as Apollo Sandbox connects), collecting what a subscription sends. */
export interface Subscribed<T = any> {
  messages: T[];
  errors: unknown[];
  /** Waits (real time) until `n` messages arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<T[]>;
  client: Client;
  close(): Promise<void>;
}

export async function subscribe<T = any>(
  port: number,
  query: string,
  variables: Record<string, unknown> = {},
  token?: string,
  onMessage?: (m: T) => void,
): Promise<Subscribed<T>> {
  const client = createClient({
    url: `ws://127.0.0.1:${port}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: token ? { Authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: () => undefined, // a refused connection is asserted by the test, not logged
  });
  const messages: T[] = [];
  const errors: unknown[] = [];
  let resolveSubscribed!: () => void;
  const acknowledged = new Promise<void>((resolve, reject) => {
    resolveSubscribed = resolve;
    client.on('connected', () => resolve());
    client.on('closed', (e) => reject(new Error(`closed: ${(e as { code?: number }).code}`)));
  });
  client.subscribe<T>(
    { query, variables },
    {
      next: (m) => {
        if (m.errors) errors.push(...m.errors);
        else if (onMessage) onMessage(m.data as T);
        else messages.push(m.data as T);
      },
      error: (e) => errors.push(e),
      complete: () => undefined,
    },
  );
  await acknowledged;
  void resolveSubscribed;
  // The subscription is registered on the server once the connection is acknowledged and the subscribe message is processed.
  await new Promise((r) => setTimeout(r, 150));
  return {
    messages,
    errors,
    client,
    async waitFor(n, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < n) {
        if (errors.length) throw new Error(`subscription error: ${JSON.stringify(errors)}`);
        if (Date.now() > deadline) throw new Error(`got ${messages.length} of ${n} messages: ${JSON.stringify(messages)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return messages;
    },
    close: () => client.dispose() as Promise<void>,
  };
}

/** Every order transition, with the filters of `orderUpdated`, as the subscription tests ask for it. */
export const ORDER_UPDATES = `subscription($distributorId: String, $shareClassId: String, $status: String, $flow: OrderFlow) {
  orderUpdated(distributorId: $distributorId, shareClassId: $shareClassId, status: $status, flow: $flow) {
    eventId orderId flow status previousStatus sequence webhookEvent distributorId shareClassId occurredAt order { id status eventSeq }
  }
}`;
