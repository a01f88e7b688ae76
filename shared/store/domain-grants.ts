/**
 * Domains granted to organisations (contract §13): one item per host name, so a domain belongs to
 * at most one organisation across the installation, indexed by organisation for its list. Only
 * the admin routes write them; API writes name them in a condition (an API's custom domain must be
 * a domain of its organisation) and the external authorization reads them to route a request.
 */
import { Conflict, NotFound, Unprocessable, type AppError } from '../errors';
import { tableName } from './db/client';
import { defineEntity } from './db/entity';
import { queryAll } from './db/items';
import type { StorageKey } from './db/storage-key';
import { writeItems, type TxItem } from './db/transactions';
import { orgMustExist } from './organisations';
import { routingVersionMove } from './routing-version';

export interface DomainGrant {
  domain: string;
  org_id: string;
  granted_at: string;
}

export const domainKeys = {
  /**
   * One partition holds every grant: the gateway model reads them all in one consistent Query
   * (an index would answer a moment late), and the installation holds few.
   */
  grant: (domain: string): StorageKey => ({ PK: 'DOMAINS#ALL', SK: `DOMAIN#${domain}` }),
  /** GSI1: an organisation's domains, by name. */
  ofOrg: (orgId: string) => `ORG#${orgId}#DOMAINS`,
};

const grants = defineEntity<DomainGrant, [domain: string]>({
  name: 'domain_grant',
  key: domainKeys.grant,
  ids: (g) => [g.domain],
  indexes: (g) => ({ GSI1PK: domainKeys.ofOrg(g.org_id), GSI1SK: g.domain }),
  audited: true,
});

/** The `entity` of a grant's item, as reads beside other items tell it apart. */
export const DOMAIN_GRANT_ENTITY = grants.name;

/**
 * Grants `grant.domain` to its organisation (which must exist: 422). Granting a domain the
 * organisation already holds changes nothing; one held by another organisation is 409.
 */
export async function insertDomainGrant(grant: DomainGrant): Promise<'granted' | 'held'> {
  const { op } = grants.put(grant);
  try {
    await writeItems([
      {
        op: {
          Put: {
            ...op.Put!,
            ConditionExpression: 'attribute_not_exists(PK)',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        onConditionFail: (old) => new DomainHeld(old?.org_id?.S === grant.org_id),
      },
      orgMustExist(grant.org_id),
      routingVersionMove(),
    ]);
    return 'granted';
  } catch (e) {
    if (e instanceof DomainHeld && e.byThisOrg) return 'held';
    throw e;
  }
}

class DomainHeld extends Conflict {
  constructor(readonly byThisOrg: boolean) {
    super('the domain is granted to another organisation; revoke it there first');
  }
}

/** Revokes `domain` from `orgId` (404 when that organisation does not hold it). */
export async function removeDomainGrant(orgId: string, domain: string): Promise<void> {
  const removal = grants.remove(domain);
  await writeItems([
    {
      ...removal,
      op: { Delete: { ...removal.op.Delete!, ConditionExpression: 'org_id = :org', ExpressionAttributeValues: { ':org': orgId } } },
      onConditionFail: () => new NotFound(`domain ${domain} is not granted to organisation ${orgId}`),
    },
    routingVersionMove(),
  ]);
}

/** Every granted domain and its organisation (one consistent Query of their partition). */
export async function loadEveryDomainGrant(): Promise<Map<string, string>> {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': domainKeys.grant('').PK },
    ConsistentRead: true,
  });
  return new Map(items.map((i) => [String(i.domain), String(i.org_id)]));
}

/** The domains of an organisation, by name (a Query of its index partition: organisations hold a few). */
export async function loadDomainGrants(orgId: string): Promise<DomainGrant[]> {
  const items = await queryAll({
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': domainKeys.ofOrg(orgId) },
  });
  return items.map((i) => grants.fromItem(i));
}

/**
 * Condition of an API write naming `domain` as its custom domain: it is granted to the API's
 * organisation, checked in the write's own transaction (a revoke racing the write wins or loses
 * whole). `refused` is the 422 otherwise.
 */
export function domainGrantedTo(domain: string, orgId: string, refused: () => AppError): TxItem {
  return {
    op: {
      ConditionCheck: {
        TableName: tableName(),
        Key: domainKeys.grant(domain),
        ConditionExpression: 'org_id = :org',
        ExpressionAttributeValues: { ':org': orgId },
      },
    },
    onConditionFail: refused,
  };
}

/** The 422 of an API write whose custom domain (at `member`) is not granted to its organisation. */
export const notGranted = (domain: string, member: string) =>
  new Unprocessable(`custom domain ${domain} is not granted to this organisation; an installation admin grants domains to organisations`, [
    { path: member, message: 'not a domain of this organisation' },
  ]);

/** The write of a grant carried by an import (409 when the domain is granted to anyone). */
export const restoredGrantItem = (grant: DomainGrant): TxItem =>
  grants.insert(grant, { taken: () => new Conflict(`the domain ${grant.domain} is granted to another organisation`) });
