/**
 * The primary key of every item of the one table. Each resource's store module
 * (shared/store/<resource>.ts) builds the keys of its own items and no other module builds them;
 * ids reaching a builder were validated by the route schemas (contract §4), so `#` cannot appear
 * in them.
 */
export type StorageKey = { PK: string; SK: string };

/** Index sort key that orders by time and stays unique. */
export const timeSortKey = (iso: string, id: string) => `${iso}#${id}`;
