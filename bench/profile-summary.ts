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

/** The project's own code (the bench's client aside): where a request's work is decided. */
const FIRST_PARTY = /\/dist\/(src|rest-compat)\//;

const frame = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/.*\/dist\//, '')}:${n.callFrame.lineNumber + 1}`;

/**
 * Self time by package and by function of a profile, and by the innermost function of the
 * project on the stack (what it called of libraries and node included): the first hint of where
 * to optimise. With the CPU per request of the profiled window, each share is also given in µs
 * per request (the profiler's own overhead is in that CPU too).
 */
export function summarizeProfile(file: string, top = 25, microsPerRequest?: number): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[] };
  const total = profile.samples.length || 1;
  const parent = new Map<number, ProfileNode>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n);
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const byProjectFrame = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, h: number) => m.set(k, (m.get(k) ?? 0) + h);
  for (const n of profile.nodes) {
    const hits = n.hitCount ?? 0;
    if (!hits) continue;
    const o = n.callFrame.functionName === '(idle)' ? '(idle)' : owner(n.callFrame.url);
    add(byOwner, o, hits);
    add(byFunction, `${n.callFrame.functionName || '(anonymous)'} ${o}${n.callFrame.url ? `:${n.callFrame.lineNumber + 1}` : ''}`, hits);
    if (o === '(idle)') continue;
    let at: ProfileNode | undefined = n;
    while (at && !FIRST_PARTY.test(at.callFrame.url)) at = parent.get(at.id);
    // Past an `await` the stack starts at the microtask queue: what runs there has no project frame.
    add(byProjectFrame, at ? frame(at) : `(no project frame) ${o}`, hits);
  }
  const busy = total - (byOwner.get('(idle)') ?? 0);
  const share = (h: number) => `${((100 * h) / busy).toFixed(1)}%`;
  const micros = (h: number) => (microsPerRequest === undefined ? '' : ` ${Math.round((microsPerRequest * h) / busy)} |`);
  const head = microsPerRequest === undefined ? '| share |' : '| share | µs/request |';
  const rule = microsPerRequest === undefined ? '|---|' : '|---|---|';
  const rows = (m: Map<string, number>) =>
    [...m.entries()]
      .filter(([k]) => k !== '(idle)' && !k.startsWith('(idle)'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, h]) => `| ${share(h)} |${micros(h)} ${k} |`);
  return [
    `Self time of the busy (non-idle) samples, ${busy} of ${total} samples.`,
    '',
    `${head} package / folder |`,
    `${rule}---|`,
    ...rows(byOwner),
    '',
    `${head} function |`,
    `${rule}---|`,
    ...rows(byFunction),
    '',
    `${head} innermost project function on the stack (what it called included) |`,
    `${rule}---|`,
    ...rows(byProjectFrame),
  ].join('\n');
}
