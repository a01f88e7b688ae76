/**
 * The whole test table as one canonical text, to prove that refused requests changed nothing.
 * Scan is fine here: this is a test reading its own small table, never service code.
 */
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../../shared/store/db/client';

/**
 * Bookkeeping that may move without any object changing: idempotency claims, rate windows, the
 * organisations' limit counters (a valid write the service refuses has spent its unit), health probes.
 */
const IGNORED = (item: Record<string, unknown>) =>
  String(item.PK).startsWith('IDEMP#') || String(item.SK).startsWith('RATE#') || String(item.PK).startsWith('ORGLIMIT#') || item.PK === 'HEALTH';

function canonical(v: unknown): unknown {
  if (v instanceof Set) return { $set: [...v].map(canonical).sort() };
  if (v instanceof Uint8Array) return { $bytes: Buffer.from(v).toString('base64') };
  if (Array.isArray(v)) return v.map(canonical);
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

export async function snapshotTable(table: string): Promise<Map<string, string>> {
  const items = new Map<string, string>();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await ddb().send(new ScanCommand({ TableName: table, ExclusiveStartKey: start, ConsistentRead: true }));
    for (const item of page.Items ?? []) {
      if (!IGNORED(item)) items.set(`${item.PK} | ${item.SK}`, JSON.stringify(canonical(item)));
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Human-readable differences between two snapshots ([] when identical). */
export function diffSnapshots(before: Map<string, string>, after: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [k, v] of before) {
    if (!after.has(k)) out.push(`removed ${k}`);
    else if (after.get(k) !== v) out.push(`changed ${k}: ${v.slice(0, 300)} -> ${after.get(k)!.slice(0, 300)}`);
  }
  for (const [k, v] of after) if (!before.has(k)) out.push(`added ${k}: ${v.slice(0, 300)}`);
  return out;
}

/**
 * Documents already read, by their bytes: a file that reads written items back after every accepted
 * request meets the same stored documents again and again (hashing them is cheaper than gunzip
 * and parse).
 */
const unzipped = new Map<string, unknown>();

/** A stored document that fits one item (API definitions, templates) as the JSON it was gzipped from; undefined for other bytes. */
function gzippedJson(v: Uint8Array): unknown {
  if (v[0] !== 0x1f || v[1] !== 0x8b) return undefined;
  const id = createHash('sha1').update(v).digest('base64');
  if (unzipped.has(id)) return unzipped.get(id);
  let doc: unknown;
  try {
    doc = JSON.parse(gunzipSync(v).toString('utf8'));
  } catch {
    doc = undefined;
  }
  unzipped.set(id, doc);
  return doc;
}

/**
 * The (name, value) pairs none of `items` holds, at any depth, as an own member with that very
 * value. Compressed documents are read as what they hold, so a definition's members count too.
 */
export function missingEntries(
  items: ReadonlyArray<Record<string, unknown>>,
  entries: ReadonlyArray<readonly [string, unknown]>,
): Array<readonly [string, unknown]> {
  const key = (name: string, value: unknown) => `${name}\u0000${JSON.stringify(canonical(value))}`;
  const missing = new Map(entries.map((e) => [key(e[0], e[1]), e]));
  const names = new Set(entries.map(([name]) => name));
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (v instanceof Uint8Array) return visit(gzippedJson(v));
    if (v === null || typeof v !== 'object' || v instanceof Set) return;
    for (const [k, e] of Object.entries(v)) {
      if (names.has(k) && missing.size) missing.delete(key(k, e));
      visit(e);
    }
  };
  items.forEach(visit);
  return [...missing.values()];
}
