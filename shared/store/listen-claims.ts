/**
 * Listen claims (contract §13): which API answers a (host, listen path), kept so that the rules of
 * §13 hold under any concurrency.
 *
 * - A marker per claim, keyed by the hash of its (domain, listen path): unique across the
 *   installation, and what the external authorization reads to route a request.
 * - On the shared hosts, an index of claims per first segment (one partition each: an item per
 *   listen path, and a head item whose version every new claim there moves). A new claim reads the
 *   head, then the claims above and below it, and writes on the head's version: two organisations
 *   claiming `/a` and `/a/b` at once cannot both pass, as the second one's head guard fails and it
 *   reads again.
 * - A claim on a custom domain holds only while the domain is granted to the API's organisation
 *   (domain-grants.ts), checked in the same transaction.
 */
import { GetCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { BadRequest } from '../errors';
import { sha256Hex } from '../lib/hashing';
import {
  claimMembersOf,
  claimTaken,
  firstSegment,
  listenClaimOf,
  listenPathProblem,
  nests,
  pathAndAncestors,
  sameClaim,
  servingClaim,
  type ListenClaim,
} from '../domain/listen-paths';
import type { ApiRecord } from '../domain/api-records';
import { ddb, tableName } from './db/client';
import { defineEntity } from './db/entity';
import { batchGet, queryAll } from './db/items';
import type { StorageKey } from './db/storage-key';
import type { TxItem } from './db/transactions';
import { DOMAIN_GRANT_ENTITY, domainGrantedTo, domainKeys, notGranted } from './domain-grants';
import { hostClaimsMove } from './host-claim-counts';

type Api = Pick<ApiRecord, 'api_id' | 'org_id' | 'kind' | 'classic' | 'oas'>;

/** A claim's (domain, listen path), hashed: both are free text, and a partition key holds at most 2 KB. */
const claimHashOf = (c: ListenClaim): string => sha256Hex(JSON.stringify([c.domain, c.path]));
/** A listen path's first segment, hashed: a segment is free text, and a partition key holds at most 2 KB. */
const segmentHashOf = (path: string): string => sha256Hex(firstSegment(path));

export const claimKeys = {
  marker: (claimHash: string): StorageKey => ({ PK: `LISTEN#${claimHash}`, SK: 'LISTEN' }),
  /** The marker of a claim. */
  of: (c: ListenClaim): StorageKey => claimKeys.marker(claimHashOf(c)),
  /** The index of the shared hosts' listen paths under one first segment. */
  index: (segmentHash: string) => `SHARED#${segmentHash}`,
  /** A listen path of the shared hosts in its first segment's index. */
  shared: (segmentHash: string, path: string): StorageKey => ({ PK: claimKeys.index(segmentHash), SK: `PATH#${path}` }),
  /** The version of a first segment's index that every new claim under it moves. */
  head: (segmentHash: string): StorageKey => ({ PK: claimKeys.index(segmentHash), SK: 'HEAD' }),
  /** The sort keys of the listen paths under `path` in its first segment's index start with this. */
  below: (path: string): string => `PATH#${path}/`,
  /**
   * Every claim of the installation, in one partition beside the markers: the gateway model reads
   * them all in one consistent Query (an index would answer a moment late, and a follower that
   * read a version's table from it could miss that version's own change).
   */
  routed: (claimHash: string): StorageKey => ({ PK: 'ROUTES#CLAIMS', SK: `CLAIM#${claimHash}` }),
};
/** The index keys of a listen path of the shared hosts: its entry and its first segment's head. */
const sharedKey = (path: string) => claimKeys.shared(segmentHashOf(path), path);
const headKey = (path: string) => claimKeys.head(segmentHashOf(path));

type Claimed = { api_id: string; org_id: string; domain: string; listen_path: string };
const markers = defineEntity<Claimed, [claimHash: string]>({ name: 'listen_path', key: claimKeys.marker });
const routed = defineEntity<Claimed, [claimHash: string]>({ name: 'routed_claim', key: claimKeys.routed });
const sharedPaths = defineEntity<{ api_id: string; org_id: string; path: string }, [segmentHash: string, path: string]>({
  name: 'shared_path',
  key: claimKeys.shared,
});
const sharedAt = (path: string): [string, string] => [segmentHashOf(path), path];
defineEntity({ name: 'shared_path_head', key: claimKeys.head });

/** The head of a first segment's index moved on after it was read: the claim is read and written again. */
export class ClaimsMoved extends Error {
  constructor() {
    super('listen claims changed between their read and their write');
  }
}

/** Attempts of a claim whose index keeps moving before the write gives up with a 409 to try again. */
export const CLAIM_ATTEMPTS = 8;

/**
 * The marker of a claim for `api` (unique across the installation, 409 when another API holds it)
 * and its entry among every claim.
 */
function markerPuts(api: Api, claim: ListenClaim): TxItem[] {
  const value = { api_id: api.api_id, org_id: api.org_id, domain: claim.domain, listen_path: claim.path };
  const { op } = markers.put(value, { at: [claimHashOf(claim)] });
  return [
    {
      op: { Put: { ...op.Put!, ConditionExpression: 'attribute_not_exists(PK) OR api_id = :me', ExpressionAttributeValues: { ':me': api.api_id } } },
      onConditionFail: () => claimTaken(claim, claimMembersOf(api).listenPath),
    },
    routed.put(value, { at: [claimHashOf(claim)] }),
  ];
}

const markerRemoves = (claim: ListenClaim): TxItem[] => [markers.remove(claimHashOf(claim)), routed.remove(claimHashOf(claim))];

/** The head's move from the version read to the next: fails when another claim moved it meanwhile. */
function headMove(path: string, seen: number): TxItem {
  return {
    op: {
      Update: {
        TableName: tableName(),
        Key: headKey(path),
        UpdateExpression: 'SET #v = :next, entity = :e',
        ConditionExpression: seen === 0 ? 'attribute_not_exists(#v)' : '#v = :seen',
        ExpressionAttributeNames: { '#v': 'version' },
        ExpressionAttributeValues: { ':next': seen + 1, ':e': 'shared_path_head', ...(seen === 0 ? {} : { ':seen': seen }) },
      },
    },
    onConditionFail: () => new ClaimsMoved(),
  };
}

/**
 * Whether another organisation's listen path on the shared hosts nests with `path` (contract
 * §13), and the head version the answer was read at. The head is read first, so a claim written
 * after it moves the head and fails this writer's guard; everything read after it is newer.
 */
async function sharedNesting(api: Api, path: string): Promise<{ taken: boolean; seen: number }> {
  const head = await ddb().send(new GetCommand({ TableName: tableName(), Key: headKey(path), ConsistentRead: true }));
  const seen = Number(head.Item?.version ?? 0);
  const [above, below] = await Promise.all([
    batchGet(pathAndAncestors(path).map(sharedKey), true, ['api_id', 'org_id', 'path']),
    anotherOrgBelow(path, api.org_id),
  ]);
  // The API's own entry (an API moving to another organisation) is no other organisation's.
  const taken = below || above.some((i) => i.api_id !== api.api_id && i.org_id !== api.org_id && nests(String(i.path), path));
  return { taken, seen };
}

/** Whether any listen path under `path` (not `path` itself) is another organisation's: pages until one is found. */
async function anotherOrgBelow(path: string, orgId: string): Promise<boolean> {
  let start: Record<string, unknown> | undefined;
  do {
    const out = await ddb().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :below)',
        FilterExpression: 'org_id <> :org',
        ExpressionAttributeValues: { ':pk': claimKeys.index(segmentHashOf(path)), ':below': claimKeys.below(path), ':org': orgId },
        ProjectionExpression: 'PK',
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    if ((out.Items ?? []).length > 0) return true;
    start = out.LastEvaluatedKey;
  } while (start);
  return false;
}

/**
 * The transaction items that move `previous`'s claim to `next`'s (either may be absent: a create,
 * a delete), after checking the rules of contract §13 against what is stored:
 * - 400 for a listen path that upstreams read in different ways, or `/` on the shared hosts;
 * - 422 for a custom domain that is not a host of the API's organisation (every write, so a
 *   revoked host is refused again on the next change);
 * - 409 for a listen path taken (the same claim, or on the shared hosts one nesting with another
 *   organisation's), saying neither whose nor whether it is the caller's own.
 * An unchanged claim writes its marker and index entry again, so an API stored before either
 * existed takes its own; one that passes to another organisation (a gateway write) is checked as
 * a new one. A head that moved meanwhile is ClaimsMoved: build again.
 */
export async function claimItems(next: Api | undefined, previous: Api | undefined): Promise<TxItem[]> {
  const [before, after] = [previous && listenClaimOf(previous), next && listenClaimOf(next)];
  const items: TxItem[] = [];
  const moved = !sameClaim(before, after);
  const newHolder = moved || previous?.org_id !== next?.org_id;
  // One fewer listen path on the host left, one more on the host taken (none when the claim stays on its host).
  if (moved && before?.domain !== after?.domain) {
    if (before) items.push(hostClaimsMove(before.domain, -1));
    if (after) items.push(hostClaimsMove(after.domain, 1));
  }
  if (before && moved) {
    items.push(...markerRemoves(before));
    if (!before.domain) items.push(sharedPaths.remove(...sharedAt(before.path)));
  }
  if (!next || !after) return items;
  const problem = listenPathProblem(next);
  if (problem) throw new BadRequest(`The API cannot claim its listen path: ${problem}`, [{ path: claimMembersOf(next).listenPath, message: problem }]);
  items.push(...markerPuts(next, after));
  if (after.domain) {
    items.push(domainGrantedTo(after.domain, next.org_id, () => notGranted(after.domain, claimMembersOf(next).domain)));
    return items;
  }
  items.push(sharedPaths.put({ api_id: next.api_id, org_id: next.org_id, path: after.path }, { at: sharedAt(after.path) }));
  if (!newHolder) return items;
  const { taken, seen } = await sharedNesting(next, after.path);
  if (taken) throw claimTaken(after, claimMembersOf(next).listenPath);
  items.push(headMove(after.path, seen));
  return items;
}

/**
 * The transaction items that release `api`'s claim (a delete), with no read: a delete cannot
 * break the rules of contract §13.
 */
export function releaseItems(api: Api): TxItem[] {
  const claim = listenClaimOf(api);
  if (!claim) return [];
  return [...markerRemoves(claim), hostClaimsMove(claim.domain, -1), ...(claim.domain ? [] : [sharedPaths.remove(...sharedAt(claim.path))])];
}

/**
 * Every claim of the installation (one consistent Query per 1 MB of claims; a claim stored before
 * the entries existed gets its own on its API's next write).
 */
export async function loadEveryClaim(): Promise<ClaimHolder[]> {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': claimKeys.routed('').PK },
    ConsistentRead: true,
  });
  return items.map((i) => ({ domain: String(i.domain ?? ''), path: String(i.listen_path ?? ''), api_id: String(i.api_id), org_id: String(i.org_id ?? '') }));
}

/** A listen claim as the external authorization finds it: whose API holds it. */
export interface ClaimHolder {
  domain: string;
  path: string;
  api_id: string;
  org_id: string;
}

/**
 * The claims among `candidates` that exist, and the organisation `host` is granted to (when it
 * is): one BatchGetItem of at most 100 keys, a few items.
 */
async function claimsAt(host: string, candidates: readonly ListenClaim[]): Promise<{ holders: ClaimHolder[]; hostOrg: string | undefined }> {
  const keys = candidates.map((c) => claimKeys.marker(claimHashOf(c)));
  if (host) keys.push(domainKeys.grant(host));
  const items = await batchGet(keys, false, ['entity', 'api_id', 'org_id', 'domain', 'listen_path']);
  const grant = items.find((i) => i.entity === DOMAIN_GRANT_ENTITY);
  const holders = items
    .filter((i) => i !== grant)
    .map((i) => ({ domain: String(i.domain ?? ''), path: String(i.listen_path ?? ''), api_id: String(i.api_id), org_id: String(i.org_id ?? '') }));
  return { holders, hostOrg: grant ? String(grant.org_id) : undefined };
}

/**
 * The claim that serves a request to `host` whose path could be under any of `listenPaths`
 * (longest first), by the rules of contract §13: the claims on the host and on the shared hosts,
 * and whom the host is granted to, in one read (claimsAt).
 */
export async function loadServingClaim(host: string, listenPaths: readonly string[]): Promise<ClaimHolder | undefined> {
  const domains = host ? [host, ''] : [''];
  const { holders, hostOrg } = await claimsAt(
    host,
    domains.flatMap((domain) => listenPaths.map((path) => ({ domain, path }))),
  );
  return servingClaim({ host, hostOrg }, listenPaths, holders);
}

/**
 * Every listen claim and domain grant of the table, for the operator's report of claims stored
 * before the rules of contract §13 (scripts/claims-report.ts). A Scan, the one in the service:
 * claims stored before the rules are in no index, and the report is an operator's offline read of
 * the whole installation, never a route (no function is granted Scan).
 */
export async function scanClaimsAndGrants(): Promise<{ claims: ClaimHolder[]; grants: Map<string, string> }> {
  const claims: ClaimHolder[] = [];
  const grants = new Map<string, string>();
  let start: Record<string, unknown> | undefined;
  do {
    const out = await ddb().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: 'entity IN (:claim, :grant)',
        ExpressionAttributeValues: { ':claim': markers.name, ':grant': DOMAIN_GRANT_ENTITY },
        ExclusiveStartKey: start,
      }),
    );
    for (const i of out.Items ?? []) {
      if (i.entity === DOMAIN_GRANT_ENTITY) grants.set(String(i.domain), String(i.org_id));
      else claims.push({ domain: String(i.domain ?? ''), path: String(i.listen_path ?? ''), api_id: String(i.api_id), org_id: String(i.org_id ?? '') });
    }
    start = out.LastEvaluatedKey;
  } while (start);
  return { claims, grants };
}
