import * as z from 'zod';

/**
 * Numbers storage can hold (contract §11). DynamoDB keeps at most 38 significant digits within
 * about 1e-130..9.99e125, and the document client refuses any number beyond ±(2^53−1) (above
 * 2^53 every double is an integer, which it will not store imprecisely). A JavaScript number
 * never has more than 17 significant digits, so what remains to check is: finite, magnitude at
 * most 2^53−1, and zero or at least 1e-130.
 */
export const STORABLE_MAX = Number.MAX_SAFE_INTEGER;
const STORABLE_MIN_MAGNITUDE = 1e-130;

/** Why storage cannot hold `n`, or undefined when it can. */
export function unstorable(n: number): string | undefined {
  if (!Number.isFinite(n)) return 'must be a finite number';
  const magnitude = Math.abs(n);
  if (magnitude > STORABLE_MAX) return `must be within ±${STORABLE_MAX} (2^53−1), which storage holds exactly`;
  if (magnitude !== 0 && magnitude < STORABLE_MIN_MAGNITUDE) return `must be 0 or at least ${STORABLE_MIN_MAGNITUDE} in magnitude, which storage holds`;
  return undefined;
}

/** What the JSON Schema of a storable number cannot say (its range can be said and is). */
const STORABLE_NOTE = `0 or a magnitude of at least ${STORABLE_MIN_MAGNITUDE} (storage holds nothing smaller)`;

/** A number field that is stored: finite, within ±(2^53−1), and not in the gap around zero. */
export const storableNumber = z
  .number()
  .min(-STORABLE_MAX)
  .max(STORABLE_MAX)
  // The range has its own messages; this names only the gap around zero.
  .refine((n) => n === 0 || Math.abs(n) >= STORABLE_MIN_MAGNITUDE || Math.abs(n) > STORABLE_MAX, { message: `must be ${STORABLE_NOTE}` });

/** Where in `value` a number storage cannot hold sits, with why; paths as Zod issues give them. */
function unstorableNumbers(value: unknown, limit = 50): Array<{ path: PropertyKey[]; message: string }> {
  const out: Array<{ path: PropertyKey[]; message: string }> = [];
  const stack: Array<[unknown, PropertyKey[]]> = [[value, []]];
  while (stack.length && out.length < limit) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'number') {
      const why = unstorable(v);
      if (why) out.push({ path, message: why });
    } else if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        if (typeof child === 'number' || (child !== null && typeof child === 'object')) stack.push([child, [...path, Array.isArray(v) ? Number(k) : k]]);
      }
    }
  }
  return out;
}

/**
 * A body that is stored as DynamoDB attributes (keys, policies, organisations, OAuth clients):
 * every number in it, the ones in free-form members (meta_data, members the schema keeps as sent)
 * included, must be storable, or the request is 400 naming the number's path before any write.
 */
export function storableBody<T extends z.ZodType>(schema: T) {
  return schema.superRefine((value, ctx) => {
    for (const p of unstorableNumbers(value)) ctx.addIssue({ code: 'custom', path: p.path, message: p.message });
  });
}
