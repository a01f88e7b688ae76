import * as z from 'zod';
import { LIMITS } from '../limits';

/**
 * Builders for the gateway's own definition objects: every listed member optional and typed,
 * unknown members kept (the gateway adds fields faster than any schema follows).
 */
export const o = <T extends Record<string, z.ZodType>>(shape: T) =>
  // What `.partial()` gives, built once: partial() builds the object a second time, and these
  // builders run at every cold start of the functions that read definitions (about 100 objects).
  z.looseObject(Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v.optional()])) as { [K in keyof T]: z.ZodOptional<T[K]> });
export const str = /* @__PURE__ */ (() => z.string().max(LIMITS.longString))();
/** A URL member (docs/reference/limits.md: URLs 2,048). */
export const urlText = /* @__PURE__ */ (() => z.string().max(LIMITS.url))();
export const bool = /* @__PURE__ */ (() => z.boolean())();
export const int = /* @__PURE__ */ (() => z.number().int())();
export const num = /* @__PURE__ */ (() => z.number())();
export const obj = /* @__PURE__ */ (() => z.record(z.string(), z.unknown()))();
/** Arrays the spec marks [] may be null. */
export const arr = <T extends z.ZodType>(item: T) => z.array(item).max(LIMITS.arrayItems).nullable();
export const strs = /* @__PURE__ */ (() => arr(str))();

export function fields<T extends z.ZodType>(names: string, type: T): Record<string, z.ZodOptional<T>> {
  return Object.fromEntries(
    names
      .trim()
      .split(/[\s,]+/)
      .map((n) => [n, type.optional()]),
  );
}
