/**
 * Reads a route's Zod 4 schema as data: which members it has, which are required, and what
 * each leaf accepts. The fuzzer uses this to aim wrong values at real fields; whether a value
 * really is invalid is always decided by the schema itself (safeParse), never guessed here.
 */
import type * as z from 'zod';

type Def = { type: string; [k: string]: any };
const defOf = (s: z.ZodType): Def => (s as any)._zod.def as Def;

/** What a leaf accepts, as far as the fuzzer needs to know. */
export interface Leaf {
  kind: 'string' | 'number' | 'boolean' | 'enum' | 'literal' | 'object' | 'record' | 'array' | 'union' | 'unknown' | 'other';
  /** Members of an object that must be present. */
  required: string[];
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  int?: boolean;
  /** A regex or format constrains the text (ids, e-mails, URLs, dates). */
  patterned?: boolean;
  coerce?: boolean;
  /** An object that keeps members its shape does not name (a catch-all of unknown). */
  loose?: boolean;
}

/** A member reachable in the input: its path and what it accepts. */
export interface Field {
  path: string[];
  leaf: Leaf;
  optional: boolean;
}

/** Strips wrappers that do not change what the input must look like (optional, default, pipe input...). */
export function unwrap(s: z.ZodType): { core: z.ZodType; optional: boolean } {
  let optional = false;
  for (let i = 0; i < 20; i++) {
    const d = defOf(s);
    if (d.type === 'optional' || d.type === 'default' || d.type === 'prefault' || d.type === 'catch') {
      optional = true;
      s = d.innerType;
    } else if (d.type === 'nullable' || d.type === 'readonly' || d.type === 'nonoptional') s = d.innerType;
    else if (d.type === 'pipe') s = defOf(d.in).type === 'transform' ? d.out : d.in;
    else if (d.type === 'lazy') s = d.getter();
    else break;
  }
  return { core: s, optional };
}

function checksOf(s: z.ZodType): Array<Record<string, any>> {
  const d = defOf(s);
  const list = (d.checks ?? []).map((c: any) => c._zod.def);
  // Formats (z.email(), z.iso.datetime()) carry their check on the schema's own def.
  if (d.check) list.push(d);
  return list;
}

function leafOf(schema: z.ZodType): Leaf {
  const { core } = unwrap(schema);
  const d = defOf(core);
  const leaf: Leaf = { kind: 'other', required: [] };
  for (const c of checksOf(core)) {
    if (c.check === 'max_length') leaf.maxLength = c.maximum;
    if (c.check === 'min_length') leaf.minLength = c.minimum;
    if (c.check === 'string_format') leaf.patterned = true;
    if (c.check === 'number_format' && /int/.test(c.format)) leaf.int = true;
    if (c.check === 'greater_than') leaf.minimum = c.value;
    if (c.check === 'less_than') leaf.maximum = c.value;
  }
  switch (d.type) {
    case 'string':
    case 'template_literal':
      leaf.kind = 'string';
      leaf.coerce = !!d.coerce;
      break;
    case 'number':
    case 'int':
    case 'bigint':
      leaf.kind = 'number';
      leaf.coerce = !!d.coerce;
      break;
    case 'boolean':
      leaf.kind = 'boolean';
      break;
    case 'enum':
      leaf.kind = 'enum';
      break;
    case 'literal':
      leaf.kind = 'literal';
      break;
    case 'object':
      leaf.kind = 'object';
      leaf.loose = d.catchall?._zod.def.type === 'unknown';
      leaf.required = Object.entries(d.shape as Record<string, z.ZodType>)
        .filter(([, v]) => !unwrap(v).optional && !isOptionalish(v))
        .map(([k]) => k);
      break;
    case 'record':
      leaf.kind = 'record';
      break;
    case 'array':
      leaf.kind = 'array';
      break;
    case 'union':
      leaf.kind = 'union';
      break;
    case 'unknown':
    case 'any':
      leaf.kind = 'unknown';
      break;
  }
  return leaf;
}

/** optional() wrapped in something (nullable().optional() unwraps to optional already). */
function isOptionalish(s: z.ZodType): boolean {
  return (s as any)._zod.optin === 'optional';
}

/** Every member path of the schema down to `maxDepth`, with array items as index 0 and record values as "k". */
export function fieldsOf(schema: z.ZodType, maxDepth = 5): Field[] {
  const out: Field[] = [];
  const walk = (s: z.ZodType, path: string[], optional: boolean, depth: number) => {
    const { core, optional: opt } = unwrap(s);
    out.push({ path, leaf: leafOf(core), optional: optional || opt || isOptionalish(s) });
    if (depth >= maxDepth) return;
    const d = defOf(core);
    if (d.type === 'object') {
      for (const [k, v] of Object.entries(d.shape as Record<string, z.ZodType>)) walk(v, [...path, k], false, depth + 1);
    } else if (d.type === 'array') walk(d.element, [...path, '0'], false, depth + 1);
    else if (d.type === 'record') walk(d.valueType, [...path, 'k'], false, depth + 1);
    else if (d.type === 'union') {
      // Objects inside unions (rare) are explored through their first object member.
      const first = (d.options as z.ZodType[]).find((o) => defOf(unwrap(o).core).type === 'object');
      if (first) walk(first, path, optional, depth);
    }
  };
  walk(schema, [], false, 0);
  return out;
}

/**
 * A plausible value for the schema: required members filled, strings that fit common patterns.
 * Not guaranteed valid (refinements are opaque); the fuzzer only uses it as a base to break.
 */
export function sampleOf(schema: z.ZodType, depth = 0): unknown {
  const { core } = unwrap(schema);
  const d = defOf(core);
  const leaf = leafOf(core);
  switch (d.type) {
    case 'object': {
      const o: Record<string, unknown> = {};
      for (const k of leaf.required) o[k] = depth > 6 ? null : sampleOf(d.shape[k], depth + 1);
      return o;
    }
    case 'string':
      if (d.format === 'email') return 'fuzz@fuzz.example';
      if (d.format === 'datetime') return '2024-01-01T00:00:00Z';
      if (d.format === 'url') return 'https://fuzz.example/';
      return leaf.minLength && leaf.minLength > 3 ? 'a'.repeat(leaf.minLength) : 'abc';
    case 'number':
    case 'int':
      return Math.max(leaf.minimum ?? 1, Math.min(1, leaf.maximum ?? 1));
    case 'boolean':
      return true;
    case 'enum':
      return Object.values(d.entries)[0];
    case 'literal':
      return d.values[0];
    case 'array':
      return leaf.minLength ? [sampleOf(d.element, depth + 1)] : [];
    case 'record':
      return {};
    case 'union':
      return sampleOf(d.options[0], depth + 1);
    default:
      return null;
  }
}
