/**
 * Webhook header values are write-only (contract §9): receivers' credentials (`Authorization`)
 * live in them, and any user of the organisation may read its hooks. Reads show every value as
 * HEADER_VALUE_MASK (shared/domain/credential-members.ts says so for every header of a hook); a
 * write that sends the mask keeps the value stored under that name, so a client can send back what
 * it read without knowing the secrets. The delivery reads the store.
 */
import { BadRequest } from '../errors';
import { HEADER_VALUE_MASK, headerMapProblems } from '../schemas/webhook-headers';

type Headers = Readonly<Record<string, string>>;

/**
 * The map to store: each masked value replaced by the stored value of the same name (names
 * compare ignoring case, as they are unique that way). A mask with nothing stored under its name
 * is 400; the result is checked against the map's limits again, as kept values have their own
 * length.
 */
export function keepMaskedHeaderValues(sent: Headers, stored: Headers): Record<string, string> {
  const byName = new Map(Object.entries(stored).map(([n, v]) => [n.toLowerCase(), v]));
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(sent)) {
    if (value !== HEADER_VALUE_MASK) {
      out[name] = value;
      continue;
    }
    const kept = byName.get(name.toLowerCase());
    if (kept === undefined) {
      throw new BadRequest(`header_map.${name} is ${HEADER_VALUE_MASK}, which keeps a stored value, and this webhook has none under that name`, [
        { path: `body.header_map.${name}`, message: `${HEADER_VALUE_MASK} keeps the stored value; there is none to keep` },
      ]);
    }
    out[name] = kept;
  }
  const problems = headerMapProblems(out);
  if (problems.length) {
    throw new BadRequest(
      `header_map with the kept values: ${problems[0]!.message}`,
      problems.map((p) => ({ path: p.name === undefined ? 'body.header_map' : `body.header_map.${p.name}`, message: p.message })),
    );
  }
  return out;
}
