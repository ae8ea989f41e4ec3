import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { redactUrl } from '../../src/common/redact';
import { killed, startChildGateway, type ChildGateway } from '../support/child-gateway';
import { eventually } from '../support/chain';

/**
 * Secrets never reach a log: an RPC provider's key in the URL's userinfo, path or query, and the
 * JSON-RPC request bodies viem puts in its errors. A gateway whose chain answers every call with
 * an error is run at LOG_LEVEL=debug, and every line it printed is searched.
 */
const SECRETS = ['pathkey0123456789', 'querykey0123456789', 'userpass0123456789'];

describe('an RPC URL with a key in it, on a failing node', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-redact-'));
  let node: Server;
  let calls = 0;
  let gw: ChildGateway;

  beforeAll(async () => {
    // given a node that fails every call
    node = createServer((req, res) => {
      calls++;
      req.resume();
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"internal failure"}}');
    });
    await new Promise<void>((r) => node.listen(0, '127.0.0.1', r));
    const url = `http://rpcuser:${SECRETS[2]}@127.0.0.1:${(node.address() as AddressInfo).port}/v3/${SECRETS[0]}?apikey=${SECRETS[1]}`;
    gw = await startChildGateway({ DATA_DIR: dataDir, LOG_LEVEL: 'debug', CHAINS: JSON.stringify({ '31337': { rpcUrls: [url], confirmations: 1 } }) });
  }, 120_000);
  afterAll(async () => {
    if (gw) await killed(gw.child, 'SIGTERM');
    node?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('logs the failure with the URL redacted and no request body', async () => {
    // when the gateway has called the node and logged its failure
    await eventually('the gateway to call the failing node and log it', async () => calls > 0 && /unavailable|failed/.test(gw.output()), 60_000);
    const lines = gw.output().split('\n');
    // then no line holds a secret or a JSON-RPC request body
    for (const secret of SECRETS) expect(lines.filter((l) => l.includes(secret))).toEqual([]);
    expect(lines.filter((l) => /"method"\s*:|eth_[a-zA-Z]+\b.*"params"|Request body/.test(l))).toEqual([]);
    // and the node is still named, by scheme, host and port
    expect(gw.output()).toContain(`http://…@127.0.0.1:${(node.address() as AddressInfo).port}/…?…`);
  }, 90_000);

  it.each([
    ['https://rpc.example/v2/abc123', 'https://rpc.example/…'],
    ['https://u:p@rpc.example:8545/?key=abc', 'https://…@rpc.example:8545?…'],
    ['wss://rpc.example/ws/abc#frag', 'wss://rpc.example/…#…'],
    ['http://127.0.0.1:8545', 'http://127.0.0.1:8545'],
    ['not a url', '[url]'],
  ])('redactUrl(%s) is %s', (url, redacted) => {
    expect(redactUrl(url)).toBe(redacted);
  });
});
