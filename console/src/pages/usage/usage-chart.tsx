/**
 * A chart drawn by Chart.js (only the parts used are registered, so the lazy chunk stays small).
 * Counts per period are stacked bars (successes and errors make up the requests): a request count is a quantity of its period, and a line between two
 * days would draw requests that never happened in between. Measurements (latency) are straight
 * lines between the periods that had any, with a gap where one had none: a period without
 * requests has no latency, which is not 0 ms. The canvas is an image to assistive technology with
 * a summary as its name; the numbers themselves are in the table under the charts.
 */
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import { useEffect, useRef } from 'preact/hooks';

Chart.register(BarController, BarElement, LineController, LineElement, PointElement, LinearScale, CategoryScale, Legend, Tooltip);

export interface Series {
  label: string;
  /** One value per period; null where the period has none (a gap, not a zero). */
  data: Array<number | null>;
  color: string;
  /** A dash pattern, so lines differ by more than colour (bars differ by their place). */
  dash?: number[];
}

export function UsageChart(props: { kind: 'bar' | 'line'; title: string; summary: string; labels: string[]; series: Series[]; unit?: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const chart = new Chart(canvas.current!, {
      type: props.kind,
      data: {
        labels: props.labels,
        datasets: props.series.map((s) =>
          props.kind === 'bar'
            ? { label: s.label, data: s.data, borderColor: s.color, backgroundColor: s.color }
            : { label: s.label, data: s.data, borderColor: s.color, backgroundColor: s.color, borderDash: s.dash ?? [], pointRadius: 2, tension: 0, spanGaps: false },
        ),
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        interaction: { mode: 'index', intersect: false },
        // Bars stack, so a period's column is its requests and its parts successes and errors.
        scales: {
          x: { stacked: props.kind === 'bar' },
          y: { stacked: props.kind === 'bar', beginAtZero: true, title: { display: Boolean(props.unit), text: props.unit ?? '' } },
        },
      },
    });
    return () => chart.destroy();
  }, [props.kind, props.labels, props.series]);
  return (
    <figure class="chart">
      <figcaption>{props.title}</figcaption>
      <div class="chart-box">
        <canvas ref={canvas} role="img" data-kind={props.kind} aria-label={`${props.title}: ${props.summary}`} />
      </div>
    </figure>
  );
}
