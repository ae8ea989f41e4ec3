import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import { count } from './format';
import 'uplot/dist/uPlot.min.css';

/**
 * NAV history as a line (uPlot: canvas, ~50 kB, no dependencies, made for time series). The
 * chart draws floats, which is fine for a picture; every figure shown as text stays a decimal
 * string. A table of the same points follows for screen readers and exact values.
 */
export function NavChart({ points, currency }: { points: { publishedAt: number; close: string }[]; currency: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current || !points.length) return;
    const el = box.current;
    const data: uPlot.AlignedData = [points.map((p) => p.publishedAt / 1000), points.map((p) => Number(p.close))];
    const plot = new uPlot(
      {
        width: el.clientWidth || 800,
        height: 260,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true } },
        axes: [{ stroke: '#4b5563' }, { stroke: '#4b5563', size: 70 }],
        series: [{}, { label: `NAV (${currency})`, stroke: '#1d4ed8', width: 2, fill: 'rgba(29, 78, 216, 0.08)', points: { show: points.length < 40 } }],
      },
      data,
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height: 260 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [points, currency]);
  if (!points.length) return <p className="muted">No NAV published yet.</p>;
  const last = points[points.length - 1];
  return (
    <figure className="chart">
      <div
        ref={box}
        role="img"
        aria-label={`NAV history, ${count(points.length, 'point')}, latest ${last.close} ${currency}`}
        data-points={points.length}
        data-last-close={last.close}
      />
      <figcaption className="muted">
        {points.length} NAVs, latest {last.close} {currency}
      </figcaption>
    </figure>
  );
}
