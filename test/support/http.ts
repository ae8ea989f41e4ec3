import { request } from 'node:http';

export interface HttpResponse<T = any> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  text: string;
}

export interface RequestOptions {
  /** The `Host` header: which distributor a surface-R request reaches. */
  host?: string;
  headers?: Record<string, string>;
  /** A JSON body (serialized) or a raw string sent as is. */
  body?: unknown;
  raw?: string;
}

/** A real HTTP request to the gateway under test (node:http, so `Host` can be set). */
export function httpRequest<T = any>(port: number, method: string, path: string, opts: RequestOptions = {}): Promise<HttpResponse<T>> {
  const payload = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  const headers: Record<string, string> = { host: opts.host ?? 'localhost', ...(opts.headers ?? {}) };
  if (payload !== undefined) {
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: body as T, text });
      });
    });
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}
