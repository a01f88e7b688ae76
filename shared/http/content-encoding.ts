/** Which of the encodings a body is offered in the request's Accept-Encoding prefers (q-values, `*`, `identity`), by negotiator. */
import Negotiator from 'negotiator';

/** The encoding to answer in: one of `offered` (earlier ones win a tie), or identity when the request accepts none of them. */
export function acceptedEncoding<E extends string>(headers: Record<string, string | undefined>, offered: readonly E[]): E | 'identity' {
  const available = [...offered, 'identity'];
  const negotiator = new Negotiator({ headers: { 'accept-encoding': headers['accept-encoding'] } });
  // negotiator 1.x takes the server's order for ties; its types (@types/negotiator 0.6) predate the option.
  const encoding = negotiator.encoding.bind(negotiator) as (available: string[], options: { preferred: string[] }) => string | undefined;
  const chosen = encoding(available, { preferred: available });
  // A request that refuses identity too gets it anyway: a body it may not take beats a 406 for a document.
  return (offered as readonly string[]).includes(chosen ?? '') ? (chosen as E) : 'identity';
}
