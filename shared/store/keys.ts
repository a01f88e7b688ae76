import { sha256Hex } from '../domain/hashing';
import type { ListenClaim } from '../domain/listen-paths';

/**
 * Every storage key of the single table is built here and nowhere else. Ids reaching these
 * builders were validated by the route schemas (decisions §4), so `#` cannot appear in them.
 */
export const keys = {
  org: (orgId: string) => ({ PK: `ORG#${orgId}`, SK: 'ORG' }),
  /** Maintained item count of one kind in an organisation (drives `pages`). */
  counter: (orgId: string, kind: string) => ({ PK: `ORG#${orgId}`, SK: `COUNT#${kind}` }),

  user: (userId: string) => ({ PK: `USER#${userId}`, SK: 'USER' }),
  /** GSI1: an organisation's users in creation order. */
  usersOfOrg: (orgId: string) => `ORG#${orgId}#USERS`,
  /** Marker that makes an e-mail unique within its organisation (case-insensitive). */
  userEmail: (orgId: string, emailLower: string) => ({ PK: `ORG#${orgId}#EMAIL#${emailLower}`, SK: 'UNIQUE' }),
  /** Dashboard access key, by SHA-256 of the clear key. */
  accessKey: (hash: string) => ({ PK: `AKEY#${hash}`, SK: 'AKEY' }),

  idempotency: (scope: string, key: string) => ({ PK: `IDEMP#${scope}#${key}`, SK: 'IDEMP' }),
  health: () => ({ PK: 'HEALTH', SK: 'HEALTH' }),
};

/** Index sort key that orders by time and stays unique. */
export const timeSortKey = (iso: string, id: string) => `${iso}#${id}`;

/** API definitions: the main item and its document parts share one partition (one Query reads all). */
export const apiKeys = {
  main: (apiId: string) => ({ PK: `API#${apiId}`, SK: 'API' }),
  part: (apiId: string, n: number) => ({ PK: `API#${apiId}`, SK: `PART#${String(n).padStart(4, '0')}` }),
  partition: (apiId: string) => `API#${apiId}`,
  /** Database id (24 hex) -> api_id. */
  byDbId: (id: string) => ({ PK: `APIDB#${id}`, SK: 'APIDB' }),
  /** GSI1 (created), GSI2 (name), GSI3 (updated): an organisation's APIs in each sort order. */
  ofOrg: (orgId: string) => `ORG#${orgId}#APIS`,
  /**
   * Marker of a (domain, listen path) claim, unique across the installation. Hashed: both are free
   * text of any length and characters, and a partition key holds at most 2 KB.
   */
  listen: (c: ListenClaim) => ({ PK: `LISTEN#${sha256Hex(JSON.stringify([c.domain, c.path]))}`, SK: 'LISTEN' }),
};

/**
 * Gateway keys (sessions), their live quota and rate windows share the key hash's partition, so
 * the data-plane check touches one partition per key. The clear key is never a storage key.
 */
export const sessionKeys = {
  key: (hash: string) => ({ PK: `KEY#${hash}`, SK: 'KEY' }),
  partition: (hash: string) => `KEY#${hash}`,
  /** Live quota of the key (scope '') or of one API under per-API limits (scope = api_id). */
  quota: (hash: string, scope = '') => ({ PK: `KEY#${hash}`, SK: scope ? `QUOTA#${scope}` : 'QUOTA' }),
  /** Fixed rate window starting at `start` (epoch seconds); expires by TTL. */
  rate: (hash: string, scope: string, start: number) => ({ PK: `KEY#${hash}`, SK: `RATE#${scope}#${start}` }),
  /** Basic-auth user name -> key hash, unique within the key's organisation ('' for org-less keys). */
  username: (orgId: string, user: string) => ({ PK: `ORG#${orgId}#KEYUSER#${user}`, SK: 'KEYUSER' }),
  /** The organisation-wide session and its live quota (covers all the organisation's keys). */
  orgSession: (orgId: string) => ({ PK: `ORG#${orgId}`, SK: 'ORGSESSION' }),
  orgQuota: (orgId: string) => ({ PK: `ORG#${orgId}`, SK: 'ORGQUOTA' }),
  policy: (id: string) => ({ PK: `POLICY#${id}`, SK: 'POLICY' }),
};
