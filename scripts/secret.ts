/**
 * Makes a secret setting's value: `npm run -s secret -- <jwt|webhook|metrics|password>` prints one;
 * `-- <kind> --out <file>` writes it to a new file readable by its owner only (0600), for the
 * setting's _FILE form (docs/deployment.md, "Secrets"). It reads no configuration and opens no
 * database.
 */
import { writeFileSync } from 'node:fs';
import { isSecretKind, SECRET_KINDS } from '../src/config/secret-generate';

function main(): number {
  const [kind, flag, out, ...rest] = process.argv.slice(2);
  if (!kind || !isSecretKind(kind) || (flag !== undefined && (flag !== '--out' || !out)) || rest.length) {
    const kinds = Object.entries(SECRET_KINDS).map(([k, v]) => `  ${k.padEnd(9)} ${v.setting}`);
    process.stderr.write(`usage: npm run -s secret -- <kind> [--out <file>]\n${kinds.join('\n')}\n`);
    return 2;
  }
  const value = SECRET_KINDS[kind].make();
  if (!out) {
    process.stdout.write(`${value}\n`);
    return 0;
  }
  try {
    // 'wx': never over a file that exists (a key in use, replaced by mistake, locks every holder out).
    writeFileSync(out, `${value}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    process.stderr.write(`${out} cannot be written: ${(err as Error).message}\n`);
    return 1;
  }
  process.stderr.write(`${SECRET_KINDS[kind].setting}: written to ${out} (mode 0600)\n`);
  return 0;
}

process.exit(main());
