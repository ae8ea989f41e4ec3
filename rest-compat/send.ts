import type { ServerResponse } from 'node:http';
import type { Envelope } from './envelope';

/**
 * The envelope as express's `res.json` writes it (same bytes and content type), without its ETag
 * hash of every body and the freshness check that goes with it: API answers are not revalidated
 * by clients (the description has no conditional requests), and the hash showed in an order
 * read's CPU (docs/benchmarks.md, "Measured costs behind code choices").
 */
export function sendEnvelope(res: ServerResponse, status: number, body: Envelope, headers?: Record<string, string>): void {
  sendJson(res, status, JSON.stringify(body), headers);
}

/** An envelope already written as JSON text (a kept idempotent answer is replayed as these bytes). */
export function sendJson(res: ServerResponse, status: number, json: string, headers?: Record<string, string>): void {
  if (headers) for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(json);
}
