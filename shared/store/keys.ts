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
