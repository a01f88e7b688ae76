/**
 * The document client's marshaller tells a map from a Set, a Map, binary, a boxed value or a
 * class instance by `value.constructor.name`. A plain object with an own member named
 * `constructor`, which client JSON may carry (`{"constructor":"x"}` in a key session or its
 * `meta_data`), was refused by it (a 500) or stored as something else (`{"constructor":
 * {"name":"Boolean"}}` became a boolean, its members lost). Such objects are handed to it as a
 * `Map` of their members instead, which it marshals by iterating its entries into the very same
 * DynamoDB map; reads give back the plain object with its `constructor` member.
 */

/** Members of a command input whose value is a map of attribute names (or placeholders) to attribute values. */
const ATTRIBUTE_MAPS = new Set(['Item', 'Key', 'ExpressionAttributeValues', 'ExclusiveStartKey']);

const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/** One attribute value, with every plain object that has an own `constructor` (at any depth) as a Map; unchanged values keep their identity. */
function attributeValue(v: unknown): unknown {
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    v.forEach((e, i) => {
      const f = attributeValue(e);
      if (f !== e) (out ??= v.slice())[i] = f;
    });
    return out ?? v;
  }
  if (!isPlainObject(v)) return v;
  let out: Record<string, unknown> | undefined;
  for (const [k, e] of Object.entries(v)) {
    const f = attributeValue(e);
    if (f !== e) (out ??= { ...v })[k] = f;
  }
  const o = out ?? v;
  return Object.hasOwn(o, 'constructor') ? new Map(Object.entries(o)) : o;
}

/** A command input with the attribute values of its items, keys and expression values made safe to marshal. */
export function marshallableInput<T>(input: T): T {
  const walk = (v: unknown, attributes: boolean): unknown => {
    if (attributes && isPlainObject(v)) {
      let out: Record<string, unknown> | undefined;
      for (const [k, e] of Object.entries(v)) {
        const f = attributeValue(e);
        if (f !== e) (out ??= { ...v })[k] = f;
      }
      return out ?? v;
    }
    if (Array.isArray(v)) {
      let out: unknown[] | undefined;
      v.forEach((e, i) => {
        const f = walk(e, false);
        if (f !== e) (out ??= v.slice())[i] = f;
      });
      return out ?? v;
    }
    if (!isPlainObject(v)) return v;
    let out: Record<string, unknown> | undefined;
    for (const [k, e] of Object.entries(v)) {
      const f = walk(e, ATTRIBUTE_MAPS.has(k));
      if (f !== e) (out ??= { ...v })[k] = f;
    }
    return out ?? v;
  };
  return walk(input, false) as T;
}
