/**
 * "The API is the caller's organisation's" (contract §2), written once: the API named by its
 * api_id or its database id, checked on its summary (one GetItem without the definition), so
 * another organisation's definition is never read. Another organisation's API is undefined exactly
 * like one that exists nowhere; each caller answers it as its route does (404, or 422 for a base).
 */
import { loadApi, loadApiSummaryByAnyId, type ApiSummary, type StoredApi } from '../store/apis';

export async function orgApiSummary(orgId: string, anyId: string): Promise<ApiSummary | undefined> {
  const summary = await loadApiSummaryByAnyId(anyId);
  return summary?.org_id === orgId ? summary : undefined;
}

/** The whole API, read only once its summary showed it is `orgId`'s (and checked again on what was read). */
export async function orgApi(orgId: string, anyId: string): Promise<StoredApi | undefined> {
  const summary = await orgApiSummary(orgId, anyId);
  const api = summary && (await loadApi(summary.api_id));
  return api?.org_id === orgId ? api : undefined;
}
