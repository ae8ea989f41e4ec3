import { useEffect, useRef, type ReactNode } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  values: (number | null)[];
  color: string;
  /** What the series measures (`EUR`, `tokens`): series of another unit get their own axis, on the right. */
  unit?: string;
}

const COLORS = ['#1d4ed8', '#b45309', '#047857', '#7c3aed', '#be123c', '#0e7490'];
export const seriesColor = (i: number) => COLORS[i % COLORS.length];

const number = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 });
const figure = (v: number | null | undefined) => (v == null ? '—' : number.format(v));
const lastOf = (values: (number | null)[]) => [...values].reverse().find((v) => v != null) ?? null;
const sumOf = (values: (number | null)[]) => values.reduce<number>((n, v) => n + (v ?? 0), 0);
/** An axis wide enough for its longest label (about 7 px a character at the page's size), so none is cut. */
const axisSize = (_u: uPlot, values: string[] | null) => Math.max(40, ...(values ?? []).map((v) => String(v).length * 7 + 18));

/**
 * A uPlot chart with its table: the canvas is a picture for the eye only (aria-hidden), and the
 * table under it holds every figure exactly, as text, for the keyboard and the screen reader.
 * `x` is seconds since the epoch with `time`, else an index labelled by `xLabels` (a label may
 * hold a line break). Every chart here measures quantities (assets, amounts, tokens, orders), so
 * each axis starts at zero; the legend shows each series' latest figure (over time) or its total
 * (over dealing dates or states), or the one under the cursor. The figure's `data-y-min` is the lowest axis start, for the tests.
 */
export function ChartFigure(props: { title: string; x: number[]; xLabels?: string[]; series: ChartSeries[]; bars?: boolean; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const { x, xLabels, series, bars } = props;
  useEffect(() => {
    if (!box.current || !x.length) return;
    const el = box.current;
    const time = !xLabels;
    const units = [...new Set(series.map((s) => s.unit ?? ''))];
    const scaleOf = (s: ChartSeries) => `y${units.indexOf(s.unit ?? '')}`;
    const fromZero = (_u: uPlot, _min: number, max: number): uPlot.Range.MinMax => [0, max > 0 ? max * 1.08 : 1];
    const plot = new uPlot(
      {
        width: el.clientWidth || 600,
        height: 240,
        legend: { show: true },
        cursor: { drag: { x: false, y: false } },
        scales: {
          // Index charts keep half a slot either side, so the first and last labels are not cut.
          x: xLabels ? { time: false, range: [-0.5, x.length - 0.5] } : { time },
          ...Object.fromEntries(units.map((_, i) => [`y${i}`, { range: fromZero }])),
        },
        axes: [
          {
            stroke: '#4b5563',
            ...(xLabels ? { values: (_u: uPlot, ticks: number[]) => ticks.map((t) => (Number.isInteger(t) ? (xLabels[t] ?? '') : '')), size: 50, gap: 6 } : {}),
          },
          ...units.map((unit, i) => ({
            scale: `y${i}`,
            stroke: '#4b5563',
            side: i === 0 ? 3 : 1,
            grid: { show: i === 0 },
            label: unit || undefined,
            size: axisSize,
            values: (_u: uPlot, ticks: number[]) => ticks.map((t) => number.format(t)),
          })),
        ],
        series: [
          {
            label: xLabels ? 'Dealt' : 'At',
            value: (_u: uPlot, v: number | null, _s: number, idx: number | null) =>
              idx == null
                ? xLabels
                  ? 'all'
                  : 'latest'
                : xLabels
                  ? (xLabels[v ?? -1] ?? '').replace('\n', ' ')
                  : new Date((v ?? 0) * 1000).toISOString().slice(0, 10),
          },
          ...series.map((s) => ({
            label: s.unit ? `${s.label} (${s.unit})` : s.label,
            scale: scaleOf(s),
            stroke: s.color,
            width: 2,
            value: (_u: uPlot, v: number | null, _s: number, idx: number | null) => figure(idx != null ? v : xLabels ? sumOf(s.values) : lastOf(s.values)),
            ...(bars ? { fill: s.color, paths: uPlot.paths.bars!({ size: [0.6 / series.length, 40] }) } : { points: { show: x.length < 40 } }),
          })),
        ],
        hooks: {
          draw: [
            (u: uPlot) => {
              el.dataset.yMin = String(Math.min(...units.map((_, i) => u.scales[`y${i}`].min ?? 0)));
            },
          ],
        },
      },
      [x, ...series.map((s) => s.values)] as uPlot.AlignedData,
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height: 240 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [x, xLabels, series, bars]);
  return (
    <figure className="chart">
      <figcaption>
        <h2>{props.title}</h2>
      </figcaption>
      {x.length > 0 && <div ref={box} aria-hidden="true" className="chart-canvas" />}
      {props.children}
    </figure>
  );
}
