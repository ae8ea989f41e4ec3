import { execFileSync } from 'node:child_process';
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
