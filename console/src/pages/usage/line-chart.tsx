/**
 * A line chart drawn by Chart.js (only the parts used are registered, so the lazy chunk stays
 * small). The canvas is an image to assistive technology with a summary as its name; the numbers
 * themselves are in the table under the charts.
 */
import { CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import { useEffect, useRef } from 'preact/hooks';

Chart.register(LineController, LineElement, PointElement, LinearScale, CategoryScale, Legend, Tooltip);

export interface Series {
  label: string;
  data: number[];
  color: string;
  /** A dash pattern, so lines differ by more than colour. */
  dash?: number[];
}

export function LineChart(props: { title: string; summary: string; labels: string[]; series: Series[]; unit?: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const chart = new Chart(canvas.current!, {
      type: 'line',
      data: {
        labels: props.labels,
        datasets: props.series.map((s) => ({ label: s.label, data: s.data, borderColor: s.color, backgroundColor: s.color, borderDash: s.dash ?? [], pointRadius: 2, tension: 0.2 })),
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        interaction: { mode: 'index', intersect: false },
        scales: { y: { beginAtZero: true, title: { display: Boolean(props.unit), text: props.unit ?? '' } } },
      },
    });
    return () => chart.destroy();
  }, [props.labels, props.series]);
  return (
    <figure class="chart">
      <figcaption>{props.title}</figcaption>
      <div class="chart-box">
        <canvas ref={canvas} role="img" aria-label={`${props.title}: ${props.summary}`} />
      </div>
    </figure>
  );
}
