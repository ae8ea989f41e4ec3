import autocannon from 'autocannon';
import type { ServerProcess } from './child';
import { SEQ, type HttpCall } from './scenarios';

let seq = 0;

export interface Sample {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** Server CPU (user + system) per answered request, µs. */
  cpuPerRequest: number;
}

/** Drives `call` at `connections` for `seconds` with autocannon and reads the server's CPU around it. */
export async function drive(server: ServerProcess, call: HttpCall, connections: number, seconds: number, amount?: number): Promise<Sample> {
  let next = 0;
  const requests = call.requests.map((r) => ({ ...r, parts: r.body?.split(SEQ) }));
  const before = await server.cpu();
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}`,
    connections,
    duration: seconds,
    ...(amount ? { amount } : {}),
    timeout: 30,
    headers: call.headers,
    requests: [
      {
        method: call.method,
        setupRequest: (req) => {
          const r = requests[next++ % requests.length];
          // Bodies with a {{seq}} placeholder get a number of their own per request.
          const body = r.parts && r.parts.length > 1 ? r.parts.join(`${process.pid}-${seq++}`) : r.body;
          return { ...req, method: call.method, path: r.path, ...(body !== undefined ? { body } : {}) };
        },
      },
    ],
  });
  const after = await server.cpu();
  await settle(server);
  const answered = result.requests.total;
  return {
    rps: answered / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: answered,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    cpuPerRequest: answered ? (after.micros - before.micros) / answered : 0,
  };
}

/**
 * Waits until the server has drained what was still queued when the load stopped (its CPU use
 * falls under 5% over 100 ms), so the tail of one round never runs into the next contender's.
 */
export async function settle(server: ServerProcess, maxMs = 10_000): Promise<void> {
  const until = Date.now() + maxMs;
  let last = await server.cpu();
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    const now = await server.cpu();
    if (now.micros - last.micros < 5_000) return;
    last = now;
  }
}

/**
 * Warms a contender up for `seconds`, and on until it has answered `minRequests` (a slow server
 * needs more time than a fast one for its hot paths to be optimised by the JIT).
 */
export async function warmUp(server: ServerProcess, call: HttpCall, connections: number, seconds: number, minRequests: number): Promise<void> {
  const first = await drive(server, call, connections, seconds);
  if (first.requests < minRequests) await drive(server, call, connections, 600, Math.max(minRequests - first.requests, connections));
}
