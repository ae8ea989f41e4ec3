import { useEffect, useRef, type ReactNode } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  values: (number | null)[];
  color: string;
}

const COLORS = ['#1d4ed8', '#b45309', '#047857', '#7c3aed', '#be123c', '#0e7490'];
export const seriesColor = (i: number) => COLORS[i % COLORS.length];

/**
 * A uPlot chart with its table: the canvas is a picture for the eye only (aria-hidden), and the
 * table under it holds every figure exactly, as text, for the keyboard and the screen reader.
 * `x` is seconds since the epoch with `time`, else an index labelled by `xLabels`.
 */
export function ChartFigure(props: { title: string; x: number[]; xLabels?: string[]; series: ChartSeries[]; bars?: boolean; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const { x, xLabels, series, bars } = props;
  useEffect(() => {
    if (!box.current || !x.length) return;
    const el = box.current;
    const time = !xLabels;
    const plot = new uPlot(
      {
        width: el.clientWidth || 600,
        height: 220,
        legend: { show: series.length > 1 },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time } },
        axes: [
          { stroke: '#4b5563', ...(xLabels ? { values: (_u: uPlot, ticks: number[]) => ticks.map((t) => xLabels[t] ?? '') } : {}) },
          { stroke: '#4b5563', size: 70 },
        ],
        series: [
          {},
          ...series.map((s) => ({
            label: s.label,
            stroke: s.color,
            width: 2,
            ...(bars ? { fill: s.color, paths: uPlot.paths.bars!({ size: [0.6 / series.length, 40] }) } : { points: { show: x.length < 40 } }),
          })),
        ],
      },
      [x, ...series.map((s) => s.values)] as uPlot.AlignedData,
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height: 220 }));
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
