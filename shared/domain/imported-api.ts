/**
 * Stored records from an import and from a streams patch, pure. Both belong to
 * the caller's organisation whatever the document or a template says: a dashboard user can
 * neither place an API in another organisation nor move one there.
 */
import { recordFromOas } from './api-builders';
import type { ApiRecord } from './api-records';
import { assertBodyIdIsPathId } from './path-ids';
import { applyImportFlags, buildImportedDocument, type ImportOptions } from './oas-import';
import { GW_EXTENSION } from './oas-document';
import type { OasDoc } from './oas-parse';
import { isPlainObject } from '../lib/plain-object';
import type { UpstreamCheck } from './upstream-hosts';
import { keepLinkedVersions } from './api-versions';

type Obj = Record<string, unknown>;

function gatewayInfo(doc: OasDoc): Obj {
  const gw = doc[GW_EXTENSION] as Obj;
  if (!isPlainObject(gw.info)) gw.info = {};
  return gw.info as Obj;
}

function upstreamUrl(doc: OasDoc): unknown {
  const upstream = (doc[GW_EXTENSION] as Obj).upstream;
  return isPlainObject(upstream) ? upstream.url : undefined;
}

/**
 * A checked import document (template already merged under it) as a new API of `orgId`. Ids are
 * always generated: a template's `info.id` would otherwise make every import of it collide. With
 * an upstream allow-list (its check), the resulting upstream must be on it (400).
 */
export function importedRecord(doc: OasDoc, options: ImportOptions, orgId: string, now: string, allowed?: UpstreamCheck): ApiRecord {
  const built = buildImportedDocument(doc, options);
  allowed?.(upstreamUrl(built), options.upstreamURL !== undefined ? 'query.upstreamURL' : `${GW_EXTENSION}.upstream.url`);
  const info = gatewayInfo(built);
  delete info.id;
  delete info.dbId;
  info.orgId = orgId;
  return recordFromOas(built, now, undefined);
}

/**
 * A streams patch body applied to the stored API: the query flags as on import, the API's own
 * ids and organisation kept (a body naming another API is 400), the upstream on the allow-list
 * when there is one (400).
 */
export function patchedStreamsRecord(body: OasDoc, options: ImportOptions, existing: ApiRecord, now: string, allowed?: UpstreamCheck): ApiRecord {
  const doc = applyImportFlags(body, options);
  allowed?.(upstreamUrl(doc), `body.${GW_EXTENSION}.upstream.url`);
  const info = gatewayInfo(doc);
  assertBodyIdIsPathId('API', existing.api_id, info.id, `body.${GW_EXTENSION}.info.id`);
  info.id = existing.api_id;
  info.dbId = existing.id;
  info.orgId = existing.org_id;
  doc[GW_EXTENSION] = keepLinkedVersions(doc[GW_EXTENSION] as Record<string, unknown>, existing.oas?.[GW_EXTENSION] as Record<string, unknown> | undefined);
  return recordFromOas(doc, now, existing);
}
