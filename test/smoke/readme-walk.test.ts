import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { npmStartEnv, startChildGateway, type ChildGateway } from '../support/child-gateway';

/**
 * The README's walk through both surfaces and the chain is what a newcomer types first: its
 * shell blocks, run as written against the built gateway on its embedded database and chain (what
 * `npm start` runs), with nothing but the banner's values put where the README says to take them.
 * Every answer is a success, and the order ends settled with the register equal to the chain.
 */

const README = join(__dirname, '..', '..', 'docs', 'walk.md');
const WALK = '## A walk through both surfaces and the chain';

/** The walk's shell blocks, in order, as the README writes them. */
function walkScript(): string {
  const readme = readFileSync(README, 'utf8');
  const start = readme.indexOf(WALK);
  expect(start).toBeGreaterThanOrEqual(0);
  const end = readme.indexOf('\n## ', start + WALK.length);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  expect(blocks.length).toBeGreaterThanOrEqual(2);
  return blocks.join('\n');
}

/** `text` with `from` replaced by `to`, which must occur there (`count` times, when given): a README edit that moves it fails here. */
function put(text: string, from: string, to: string, count?: number): string {
  const found = text.split(from).length - 1;
  if (count === undefined) expect(found).toBeGreaterThan(0);
  else expect(found).toBe(count);
  return text.split(from).join(to);
}

/** The script with the banner's values where the README says to take them, and the gateway's port for 4000. */
function withBanner(script: string, gw: ChildGateway): string {
  const out = gw.output();
  const [, key, secret] = /x-api-key (pk_\S+) and x-api-secret (sk_\S+)/.exec(out)!;
  const [, ops] = /Ops token for Sandbox \(header Authorization\): Bearer (ops_\S+)/.exec(out)!;
  const [, rpc] = /Chain {4}31337 (http:\/\/127\.0\.0\.1:\d+)/.exec(out)!;
  let s = put(script, 'http://localhost:4000', `http://localhost:${gw.port}`);
  s = put(s, 'KEY=pk_…; SECRET=sk_…', `KEY=${key}; SECRET=${secret}`, 1);
  s = put(s, 'OPS=ops_…; RPC=http://127.0.0.1:…', `OPS=${ops}; RPC=${rpc}`, 1);
  // "Two blocks of the embedded chain": on a loaded machine they may take longer than 4 s, so the
  // wait lasts until the order says it settled (a minute at most), asked through the walk's own gql.
  return put(s, 'sleep 4 ', `for _ in $(seq 1 60); do gql "{ order(id: \\"$ORDER\\") { status } }" | grep -q '"settled"' && break; sleep 1; done; `, 1);
}

/** Runs a bash script; resolves with what it printed, or rejects with that and its exit code. */
function bash(script: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('bash', ['-euo', 'pipefail', '-c', script], { timeout: 150_000, maxBuffer: 10_000_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`the walk failed (${err.message}):\n${stdout}\n${stderr}`)) : resolve(stdout),
    );
  });
}

describe("the README's walk through both surfaces and the chain", () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-readme-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  jest.setTimeout(300_000);

  it('runs as written against `npm start`: every answer a success, the one-step order settled on chain, the register equal to balanceOf', async () => {
    const gw = await startChildGateway(npmStartEnv(dataDir));
    const lines = (await bash(withBanner(walkScript(), gw))).trim().split('\n');

    // Each JSON answer on a line of its own, none of them a failure.
    const answers = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const answer of answers) {
      expect(answer).not.toHaveProperty('errors');
      if ('isError' in answer) expect(answer).toMatchObject({ isError: false, errorMsg: 'NA' });
    }
    expect(lines).toContain("[ 'SC000001', 'SC000002' ]");
    expect(lines).toContain('submitted');
    const data = answers.map((a) => a.data as Record<string, any>);
    expect(data).toContainEqual(expect.objectContaining({ status: 'pending', type: 'subscribe', investorId: 'IN000001' }));
    expect(data).toContainEqual(expect.objectContaining({ status: 'pending', type: 'redeem', userId: 'US000001', tokenCount: 5 }));
    expect(data).toContainEqual({ acceptOneStepOrder: expect.objectContaining({ status: 'accepted' }) });
    expect(data).toContainEqual({ publishNav: { entryId: expect.stringMatching(/^\d{14}$/) } });
    // Settled at the dealing date's NAV the walk published: 2,500 / 1.04 (within the demo class's tolerance of its last NAV, so live at once).
    const settled = data.find((d) => d?.order)?.order;
    expect(settled).toMatchObject({
      status: 'settled',
      settlementTokens: '2403.846153',
      transferHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      settlementTransaction: { status: 'confirmed' },
    });
    // The walk ends with the register's balance, then the token contract's balanceOf the wallet.
    const [register, chain] = lines.slice(-2);
    expect(register).toMatch(/^\d+(\.\d+)?$/);
    expect(Number(chain)).toBe(Number(register));
  });
});
