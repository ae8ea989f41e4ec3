import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

/** Where a module's code lives: the npm package, the project's folder, or node's internals. */
function owner(url: string): string {
  if (!url) return '(native / GC / idle)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const m = /\/dist\/(src\/[^/]+|rest-compat|bench)/.exec(url);
  return m ? `project ${m[1]}` : url;
}

/** Self time by package and by function of a `--cpu-prof` profile: the first hint of where to optimise. */
export function summarizeProfile(file: string, top = 25): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[] };
  const total = profile.samples.length || 1;
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const n of profile.nodes) {
    const hits = n.hitCount ?? 0;
    if (!hits) continue;
    const o = n.callFrame.functionName === '(idle)' ? '(idle)' : owner(n.callFrame.url);
    byOwner.set(o, (byOwner.get(o) ?? 0) + hits);
    const fn = `${n.callFrame.functionName || '(anonymous)'} ${o}${n.callFrame.url ? `:${n.callFrame.lineNumber + 1}` : ''}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + hits);
  }
  const busy = total - (byOwner.get('(idle)') ?? 0);
  const pct = (h: number) => `${((100 * h) / busy).toFixed(1)}%`;
  const rows = (m: Map<string, number>) =>
    [...m.entries()]
      .filter(([k]) => k !== '(idle)' && !k.startsWith('(idle)'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, h]) => `| ${pct(h)} | ${k} |`);
  return [
    `Self time of the busy (non-idle) samples, ${busy} of ${total} samples.`,
    '',
    '| share | package / folder |',
    '|---|---|',
    ...rows(byOwner),
    '',
    '| share | function |',
    '|---|---|',
    ...rows(byFunction),
  ].join('\n');
}
