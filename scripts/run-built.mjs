// Runs a built script (dist/scripts/<name>.js), compiling first only when a source is newer than
// the build: `npm run ops-token` and `npm run hsm-key` took 21-36 s of tsc on every call. A
// deployment that built once (`npm run build`) runs its scripts at once; a developer who changed
// the code gets it compiled, as before.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const [name, ...args] = process.argv.slice(2);
const root = join(import.meta.dirname, '..');
const built = join(root, 'dist', 'scripts', `${name}.js`);

/** The newest modification time under `dir` of a file the build compiles. */
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(path));
    else if (/\.(ts|json)$/.test(entry.name)) latest = Math.max(latest, statSync(path).mtimeMs);
  }
  return latest;
}

const sources = ['src', 'scripts', 'rest-compat', 'tsconfig.json'].map((p) => join(root, p));
const stale = !existsSync(built) || sources.some((p) => (statSync(p).isDirectory() ? newest(p) : statSync(p).mtimeMs) > statSync(built).mtimeMs);
if (stale) {
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', root], { stdio: 'inherit' });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
}
const run = spawnSync(process.execPath, [built, ...args], { stdio: 'inherit' });
process.exit(run.status ?? 1);
