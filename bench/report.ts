import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Sample } from './load';
import type { ContenderName, Plan } from './scenarios';

export interface Machine {
  nproc: number;
  cpu: string;
  memoryGiB: number;
  node: string;
  postgres: string;
  loadAverage: number[];
  database: 'server' | 'embedded';
}

export interface ContenderResult {
  contender: ContenderName;
  state: Plan['state'];
  reason?: string;
  bytes?: number;
  rounds: Sample[];
  /** Throughput over the baseline's in the same round. */
  ratios: number[];
}

export interface ScenarioResult {
  key: string;
  title: string;
  shapeNotes: string[];
  contenders: ContenderResult[];
}

export interface RunReport {
  startedAt: string;
  mode: string;
  settings: Record<string, unknown>;
  machine: Machine;
  scenarios: ScenarioResult[];
  /** Scale mode: p99 at the large size over the small one, per scenario and contender. */
  scale?: ScaleComparison[];
  /** Scale mode: the scenarios measured on the small dataset (`scenarios` holds the large one). */
  smallScenarios?: ScenarioResult[];
}

export interface ScaleComparison {
  key: string;
  title: string;
  contender: ContenderName;
  smallP99: number | null;
  largeP99: number | null;
  ratio: number | null;
  /** Server CPU µs per request (median over rounds): steadier than p99 on a shared machine. */
  smallCpu: number | null;
  largeCpu: number | null;
}

const median = (xs: number[]) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
export { median };

const f0 = (x: number) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '—');
const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '—');
const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '—');

/** The Markdown table of a run. */
export function markdownTable(report: RunReport): string {
  const lines = [
    '| Scenario | Contender | req/s median (range) | p50 ms | p99 ms | server CPU µs/req | ratio to baseline, median (range) | non-2xx / errors | bytes/resp |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const s of report.scenarios) {
    for (const c of s.contenders) {
      if (c.state === 'n/a') continue;
      if (c.state !== 'ready') {
        lines.push(`| ${s.title} | ${c.contender} | ${c.state}: ${c.reason ?? ''} | | | | | | |`);
        continue;
      }
      const rps = c.rounds.map((r) => r.rps);
      const ratio =
        c.contender === 'baseline' ? '1' : c.ratios.length ? `${f2(median(c.ratios))} (${f2(Math.min(...c.ratios))}–${f2(Math.max(...c.ratios))})` : '—';
      const bad = c.rounds.reduce((n, r) => n + r.non2xx, 0);
      const errors = c.rounds.reduce((n, r) => n + r.errors, 0);
      lines.push(
        `| ${s.title} | ${c.contender} | ${f0(median(rps))} (${f0(Math.min(...rps))}–${f0(Math.max(...rps))}) | ${f1(median(c.rounds.map((r) => r.p50)))} | ${f1(median(c.rounds.map((r) => r.p99)))} | ${f0(median(c.rounds.map((r) => r.cpuPerRequest)))} | ${ratio} | ${bad} / ${errors} | ${c.bytes ?? ''} |`,
      );
    }
  }
  const notes = report.scenarios
    .filter((s) => s.shapeNotes.length)
    .map((s) => `- ${s.title}: the baseline's data differs from the facade's: ${s.shapeNotes.join('; ')}`);
  return [lines.join('\n'), notes.length ? `\nShape differences (the baseline should write the same envelope):\n${notes.join('\n')}` : ''].join('\n');
}

export function scaleTable(rows: ScaleComparison[], small: string, large: string): string {
  const lines = [
    `| Scenario | Contender | p99 ms at ${small} | p99 ms at ${large} | p99 ratio (target ≤ 1.5) | CPU µs/req, small → large |`,
    '|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const cpu = r.smallCpu === null || r.largeCpu === null ? '—' : `${f0(r.smallCpu)} → ${f0(r.largeCpu)}`;
    lines.push(
      `| ${r.title} | ${r.contender} | ${r.smallP99 === null ? 'skipped' : f1(r.smallP99)} | ${r.largeP99 === null ? 'skipped' : f1(r.largeP99)} | ${r.ratio === null ? '—' : f2(r.ratio)} | ${cpu} |`,
    );
  }
  return lines.join('\n');
}

export function machineLine(m: Machine): string {
  return `${m.nproc} cores (${m.cpu}), ${m.memoryGiB} GiB, Node ${m.node}, ${m.postgres}${m.database === 'embedded' ? ' (EMBEDDED: not comparable)' : ''}; load average at start ${m.loadAverage.map((x) => x.toFixed(2)).join(' / ')}`;
}

export function markdownReport(report: RunReport, body: string): string {
  return [
    `# Bench run ${report.startedAt} (${report.mode})`,
    '',
    `Machine: ${machineLine(report.machine)}`,
    '',
    `Settings: ${Object.entries(report.settings)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(', ')}`,
    '',
    body,
    '',
  ].join('\n');
}

/** Writes `<name>.json` and `<name>.md` under bench/results (git-ignored), and `latest-*` copies. */
export function writeResults(dir: string, name: string, report: RunReport, markdown: string): string[] {
  mkdirSync(dir, { recursive: true });
  const files = [join(dir, `${name}.json`), join(dir, `${name}.md`), join(dir, `latest-${report.mode}.json`), join(dir, `latest-${report.mode}.md`)];
  writeFileSync(files[0], JSON.stringify(report, null, 2));
  writeFileSync(files[1], markdown);
  writeFileSync(files[2], JSON.stringify(report, null, 2));
  writeFileSync(files[3], markdown);
  return files.slice(0, 2);
}

/** Replaces the text between `<!-- bench:<section>:start -->` and `<!-- bench:<section>:end -->` in docs/benchmarks.md. */
export function updateDocs(file: string, section: string, text: string): boolean {
  if (!existsSync(file)) return false;
  const doc = readFileSync(file, 'utf8');
  const start = `<!-- bench:${section}:start -->`;
  const end = `<!-- bench:${section}:end -->`;
  const a = doc.indexOf(start);
  const b = doc.indexOf(end);
  if (a < 0 || b < a) return false;
  writeFileSync(file, `${doc.slice(0, a + start.length)}\n${text.trim()}\n${doc.slice(b)}`);
  return true;
}
