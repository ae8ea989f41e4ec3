import { execFileSync } from 'node:child_process';
import type { Address } from 'viem';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInThisContext } from 'node:vm';

/** Debian's SoftHSM 2 (`apt-get install softhsm2`; .ci/run installs it when missing). */
export const SOFTHSM_LIBRARY = '/usr/lib/softhsm/libsofthsm2.so';

export interface SoftHsmToken {
  library: string;
  tokenLabel: string;
  pin: string;
  /** A file holding the PIN (mode 0600), as an operator's secret mount would. */
  pinFile: string;
  /** SOFTHSM2_CONF of this token's store (set in process.env by `aSoftHsmToken`). */
  conf: string;
  /** Deletes the token's store. */
  remove(): void;
}

/**
 * A fresh SoftHSM token in its own store under a temporary folder, initialised with
 * `softhsm2-util --init-token`. SoftHSM reads SOFTHSM2_CONF when its library is initialised, so
 * this sets it in the environment of this process (and of the children it starts): a token per
 * test file, the library finalised between them (the gateway's close). Throws —
 * the test fails, it never skips — when SoftHSM is not installed.
 */
export function aSoftHsmToken(tokenLabel = 'gateway'): SoftHsmToken {
  if (!existsSync(SOFTHSM_LIBRARY)) throw new Error(`SoftHSM is not installed (${SOFTHSM_LIBRARY} is missing): apt-get install softhsm2`);
  const dir = mkdtempSync(join(tmpdir(), 'gw-softhsm-'));
  const conf = join(dir, 'softhsm2.conf');
  const tokens = join(dir, 'tokens');
  execFileSync('mkdir', ['-m', '0700', tokens]);
  writeFileSync(conf, `directories.tokendir = ${tokens}\nobjectstore.backend = file\nlog.level = ERROR\nslots.removable = false\n`);
  const pin = `pin-${Math.random().toString(36).slice(2, 10)}`;
  const pinFile = join(dir, 'pin');
  writeFileSync(pinFile, `${pin}\n`, { mode: 0o600 });
  process.env.SOFTHSM2_CONF = conf;
  // Jest gives a test file a copy of process.env; SoftHSM reads the process's own (getenv), which
  // only Node's own `process`, outside the test's sandbox, sets.
  (runInThisContext('process') as NodeJS.Process).env.SOFTHSM2_CONF = conf;
  execFileSync('softhsm2-util', ['--init-token', '--free', '--label', tokenLabel, '--pin', pin, '--so-pin', `so-${pin}`], { env: process.env, stdio: 'pipe' });
  return { library: SOFTHSM_LIBRARY, tokenLabel, pin, pinFile, conf, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Creates a key in the token with `npm run hsm-key`, as an operator does (the built script, dist/scripts/hsm-key.js); its address. */
export function anHsmAgentKey(hsm: SoftHsmToken, label: string): Address {
  const out = execFileSync(
    'node',
    ['dist/scripts/hsm-key.js', '--library', hsm.library, '--token', hsm.tokenLabel, '--label', label, '--pin-file', hsm.pinFile],
    { env: process.env, encoding: 'utf8' },
  );
  const printed = out.match(/^generated agent key "(.+)" in token "(.+)": address (0x[0-9a-fA-F]{40})$/m);
  if (printed?.[1] !== label || printed[2] !== hsm.tokenLabel) throw new Error(`hsm-key printed: ${out}`);
  return printed[3] as Address;
}

/** The `signer` of a CHAINS entry for the key of that label in the token, its PIN in a file. */
export const hsmSigner = (hsm: SoftHsmToken, keyLabel: string) => ({
  kind: 'pkcs11',
  library: hsm.library,
  tokenLabel: hsm.tokenLabel,
  keyLabel,
  pinFile: hsm.pinFile,
});
