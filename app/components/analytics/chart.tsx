import { useId, useState } from "react";

export interface ChartPoint {
  label: string;
  /** Longer text for the tooltip and the data table, e.g. the bucket's days. */
  detail: string;
  value: number;
}

/**
 * A bar chart drawn as SVG on the server (issue 15): readable without JavaScript and when printed, with a
 * title and description for screen readers and a native tooltip per bar; the previous period, when
 * compared, is a dashed line over the bars. With JavaScript a richer tooltip follows the pointer.
 */
export function BarChart({
  title,
  description,
  current,
  previous,
  currentLabel,
  previousLabel,
  height = 220,
  compact = false,
}: {
  title: string;
  description: string;
  current: ChartPoint[];
  previous?: ChartPoint[] | null;
  currentLabel: string;
  previousLabel: string;
  height?: number;
  compact?: boolean;
}) {
  const id = useId();
  const [hover, setHover] = useState<number | null>(null);
  // A narrower drawing for the small cards keeps its text legible when scaled down to the card.
  const width = compact ? 380 : 640;
  const pad = { top: 12, right: 8, bottom: compact ? 24 : 30, left: compact ? 38 : 46 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const { max, ticks } = niceScale(Math.max(...current.map((p) => p.value), ...(previous ?? []).map((p) => p.value), 0));
  const n = Math.max(current.length, 1);
  const slot = plotW / n;
  const barW = Math.max(1, Math.min(36, slot * 0.7));
  const y = (v: number) => pad.top + plotH - (v / max) * plotH;
  const x = (i: number) => pad.left + slot * i + slot / 2;
  const labelEvery = Math.max(1, Math.ceil(n / (compact ? 4 : 8)));
  const line = previous?.length
    ? previous
        .slice(0, n)
        .map((p, i) => `${i === 0 ? "M" : "L"}${x(i).toFixed(1)},${y(p.value).toFixed(1)}`)
        .join(" ")
    : null;

  return (
    <figure className="chart" onMouseLeave={() => setHover(null)}>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={`${id}-t ${id}-d`} className="chart-svg">
        <title id={`${id}-t`}>{title}</title>
        <desc id={`${id}-d`}>{description}</desc>
        {ticks.map((tick, i) => (
          <g key={i} className="chart-grid">
            <line x1={pad.left} x2={width - pad.right} y1={y(tick)} y2={y(tick)} />
            {(!compact || i % 2 === 0) && (
              <text x={pad.left - 6} y={y(tick) + 4} textAnchor="end">
                {formatTick(tick)}
              </text>
            )}
          </g>
        ))}
        {current.map((p, i) => (
          <g key={i} onMouseEnter={() => setHover(i)} onFocus={() => setHover(i)}>
            <rect className="chart-hit" x={pad.left + slot * i} y={pad.top} width={slot} height={plotH} />
            <rect
              className={`chart-bar${hover === i ? " active" : ""}`}
              x={x(i) - barW / 2}
              y={y(p.value)}
              width={barW}
              height={Math.max(0, pad.top + plotH - y(p.value))}
              rx={Math.min(3, barW / 3)}
            >
              <title>{`${p.detail}: ${p.value}${previous?.[i] ? ` (${previousLabel}: ${previous[i].value})` : ""}`}</title>
            </rect>
            {i % labelEvery === 0 && (
              <text
                className={`chart-x${(i / labelEvery) % 2 === 1 ? " chart-x-alt" : ""}`}
                x={x(i)}
                y={height - (compact ? 6 : 10)}
                textAnchor="middle"
              >
                {p.label}
              </text>
            )}
          </g>
        ))}
        {line && <path className="chart-previous" d={line} fill="none" />}
      </svg>
      {hover !== null && current[hover] && (
        <div className="chart-tooltip" role="status" style={{ left: `${(x(hover) / width) * 100}%` }}>
          <strong>{current[hover].detail}</strong>
          <span>
            {currentLabel}: {current[hover].value}
          </span>
          {previous?.[hover] && (
            <span>
              {previousLabel}: {previous[hover].value}
            </span>
          )}
        </div>
      )}
      {previous && (
        <figcaption className="chart-legend">
          <span className="legend-current">{currentLabel}</span>
          <span className="legend-previous">{previousLabel}</span>
        </figcaption>
      )}
    </figure>
  );
}

/** Round axis ticks: steps of 1, 2 or 5 times a power of ten (whole numbers), three to six of them. */
export function niceScale(value: number) {
  const raw = Math.max(1, value) / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power);
  const max = Math.max(step, Math.ceil(Math.max(1, value) / step) * step);
  const ticks: number[] = [];
  for (let t = 0; t <= max + step / 2; t += step) ticks.push(Math.round(t));
  return { max, ticks };
}

function formatTick(value: number) {
  if (value >= 1_000_000) return `${Math.round(value / 100_000) / 10}M`;
  if (value >= 10_000) return `${Math.round(value / 1000)}k`;
  return String(value);
}
