import { Conflict, Unprocessable } from '../errors';
import { isPlainObject } from '../lib/plain-object';

type Obj = Record<string, unknown>;

export interface LinkVersionInput {
  childApiId: string;
  newVersionName: string | undefined;
  baseVersionName?: string;
  setDefault?: boolean;
}

/** Defaults of the reference gateway: the version travels in this request header. */
const DEFAULT_VERSION_KEY = 'x-api-version';
const DEFAULT_VERSION_LOCATION = 'header';
/** The base's own version name when neither the base nor the request names one. */
const DEFAULT_BASE_VERSION_NAME = 'Default';

/**
 * The base API's `x-gw-api-gateway` after linking a child as a new version (contract §8):
 * versioning enabled, `{id, name}` added (or renamed when the child is already linked),
 * `name` = baseVersionName when given, `default` = the new name when setDefault (else the
 * existing default, else the base itself), key/location defaulting to `x-api-version` / header.
 * Pure: the caller writes base and child in one transaction.
 */
export function linkVersion(baseGateway: Obj, input: LinkVersionInput): Obj {
  const newName = input.newVersionName?.trim();
  if (!newName) {
    throw new Unprocessable('new_version_name is required when base_api_id is given', [
      { path: 'query.new_version_name', message: 'required with base_api_id' },
    ]);
  }
  const gw = structuredClone(baseGateway);
  const info = child(gw, 'info');
  const versioning = child(info, 'versioning');
  const baseId = typeof info.id === 'string' ? info.id : undefined;
  if (baseId !== undefined && baseId === input.childApiId) {
    throw new Unprocessable('an API cannot be a version of itself', [{ path: 'query.base_api_id', message: 'is the API itself' }]);
  }

  const baseName = input.baseVersionName?.trim() || nonEmpty(versioning.name) || DEFAULT_BASE_VERSION_NAME;
  if (baseName === newName) {
    throw new Conflict(`version name ${newName} is the base API's own version name`);
  }
  const versions = (Array.isArray(versioning.versions) ? versioning.versions : []).filter(isPlainObject);
  const clash = versions.find((v) => v.name === newName && v.id !== input.childApiId);
  if (clash) throw new Conflict(`version name ${newName} is already used by API ${String(clash.id)}`);
  const others = versions.filter((v) => v.id !== input.childApiId);

  versioning.enabled = true;
  versioning.name = baseName;
  versioning.versions = [...others, { id: input.childApiId, name: newName }];
  versioning.key = nonEmpty(versioning.key) ?? DEFAULT_VERSION_KEY;
  versioning.location = nonEmpty(versioning.location) ?? DEFAULT_VERSION_LOCATION;
  if (input.setDefault) versioning.default = newName;
  else versioning.default = nonEmpty(versioning.default) ?? baseName;
  return gw;
}

/**
 * The base's `x-gw-api-gateway` once a child version is gone (the child was deleted): its entry
 * removed, and the default falls back to the base when it named the child.
 */
export function unlinkVersion(baseGateway: Obj, childApiId: string): Obj {
  const gw = structuredClone(baseGateway);
  const versioning = child(child(gw, 'info'), 'versioning');
  const versions = (Array.isArray(versioning.versions) ? versioning.versions : []).filter(isPlainObject);
  const gone = versions.filter((v) => v.id === childApiId).map((v) => v.name);
  versioning.versions = versions.filter((v) => v.id !== childApiId);
  if (gone.includes(versioning.default)) versioning.default = nonEmpty(versioning.name) ?? DEFAULT_BASE_VERSION_NAME;
  return gw;
}

/** The version entries of a base's `x-gw-api-gateway` (child ids to names). */
export function versionsOf(gateway: Obj): Array<{ id: string; name: string }> {
  const info = isPlainObject(gateway.info) ? gateway.info : {};
  const versioning = isPlainObject(info.versioning) ? info.versioning : {};
  const versions = Array.isArray(versioning.versions) ? versioning.versions : [];
  return versions.filter((v): v is { id: string; name: string } => isPlainObject(v) && typeof v.id === 'string' && typeof v.name === 'string');
}

function nonEmpty(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

function child(parent: Obj, key: string): Obj {
  const v = parent[key];
  if (isPlainObject(v)) return v;
  const created: Obj = {};
  parent[key] = created;
  return created;
}

/**
 * The version list of an API is owned by linking (base_api_id on create, import or update) and
 * unlinking (deleting a version): a replacement of the base keeps the stored list whatever its
 * body says, so no child is left pointing at a base that no longer lists it.
 */
export function keepLinkedVersions(nextGateway: Obj, storedGateway: Obj | undefined): Obj {
  const linked = storedGateway ? versionsOf(storedGateway) : [];
  const sent = versionsOf(nextGateway);
  if (linked.length === 0 && sent.length === 0) return nextGateway;
  const gw = structuredClone(nextGateway);
  const versioning = child(child(gw, 'info'), 'versioning');
  versioning.versions = linked;
  return gw;
}
