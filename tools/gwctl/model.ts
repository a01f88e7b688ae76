/**
 * What a configuration folder holds: one file per object, `{kind, spec, version_of?}`, where `spec`
 * is the body the object's write route takes (its schema in the service's OpenAPI document),
 * minus what the service manages (ids it generates, its organisation, versions, timestamps), with
 * references the service spells as generated ids written as names (`${hook:<name>}`) and
 * write-only values written as environment references (`${env:<NAME>}`).
 */
export const FORMAT = 'gwctl/v1';
export const INDEX_FILE = 'gwctl.yaml';

/** In reference order: what a kind names is created before it and deleted after it. */
export const KINDS = ['hook', 'template', 'api', 'policy', 'oauth-client'] as const;
export type Kind = (typeof KINDS)[number];

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

/** One object as its file holds it. */
export interface ConfigObject {
  kind: Kind;
  spec: JsonObject;
  /** APIs only: this API is the version `name` of the base API `base` (an api_id). */
  version_of?: { base: string; name: string };
}

/** A file of a folder: its path relative to the folder and its object. */
export interface ConfigFile {
  path: string;
  object: ConfigObject;
}

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A reference to a webhook by name, as files write a handler's hook id. */
export const hookRef = (name: string) => `\${hook:${name}}`;
export const HOOK_REF = /^\$\{hook:(.+)\}$/;
/** A value taken from the environment when the object is written. */
export const envRef = (name: string) => `\${env:${name}}`;
export const ENV_REF = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Upper-case environment-variable spelling of free text. */
export const envName = (...parts: string[]) =>
  parts
    .map((p) =>
      p
        .toUpperCase()
        .replace(/[^A-Z0-9]+/g, '_')
        .replace(/^_+|_+$/g, ''),
    )
    .filter(Boolean)
    .join('_');

/** A file-name spelling of an identity (ids are already safe; names may not be). */
export const fileSlug = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '') || 'unnamed';

/** A deep copy with members in sorted order (arrays keep theirs): the one canonical form. */
export function canonical(v: Json): Json {
  if (Array.isArray(v)) return v.map(canonical);
  if (isObject(v))
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical(v[k]!)]),
    );
  return v;
}
