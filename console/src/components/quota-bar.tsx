/** A key's quota: used of max as a meter and in words, and when the window renews. */
import { dateTime } from '../format';

export function QuotaBar(props: { max: number; remaining: number; renews: number; label: string }) {
  // quota_max -1 (or <= 0) is unlimited (decisions §6).
  if (props.max <= 0) return <span class="muted">Unlimited</span>;
  const used = Math.min(props.max, Math.max(0, props.max - props.remaining));
  return (
    <div class="quota">
      <meter min={0} max={props.max} value={used} high={props.max * 0.8} optimum={0} aria-label={`${props.label}: ${used} of ${props.max} requests used`} />
      <span class="quota-text">
        {used} of {props.max} used
      </span>
      {props.renews > 0 && <span class="muted quota-renews">renews {dateTime(props.renews)}</span>}
    </div>
  );
}
