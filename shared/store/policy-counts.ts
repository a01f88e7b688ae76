/**
 * Counting the policies stored before policy counts were kept (docs/reference/lists.md): an organisation
 * made since has an exact count from its creation (organisations.ts); one made before holds
 * policies no count has taken in. This adds each such policy to its organisation's count, one
 * transaction per policy (the policy marked `counted_in`, the count +1, conditional on the policy
 * being unchanged), then marks the count exact. Writes running meanwhile stay exact: each is
 * guarded on the `counted_in` it read, and every write since counts what it writes.
 *
 * An operator's command (`npm run count-policies`) and `npm start` run it; no request does: it
 * scans the table for organisations, and the functions may not Scan.
 */
import { tableName } from './db/client';
import { getItem, queryAll } from './db/items';
import { transactWrite, writeItems } from './db/transactions';
import { countChange, EXACT, orgKeys, scanStoredOrganisations } from './organisations';
import { COUNTED_IN, policiesOfOrg, policyKey } from './policies';

/** The policy changed since the Query read it: a write since has counted it, or deleted it. */
class Changed extends Error {}

/** Counts one organisation's uncounted policies and marks its count exact; answers how many it added. */
async function countOrganisation(orgId: string): Promise<number> {
  const uncounted = await queryAll({
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    FilterExpression: 'attribute_not_exists(#counted)',
    ProjectionExpression: '#id, #v',
    ExpressionAttributeNames: { '#counted': COUNTED_IN, '#id': 'id', '#v': 'version' },
    ExpressionAttributeValues: { ':pk': policiesOfOrg(orgId) },
  });
  let added = 0;
  for (const p of uncounted) {
    try {
      await transactWrite([
        {
          op: {
            Update: {
              TableName: tableName(),
              Key: policyKey(String(p.id)),
              UpdateExpression: 'SET #counted = :org',
              ConditionExpression: 'attribute_not_exists(#counted) AND org_id = :org AND #v = :v',
              ExpressionAttributeNames: { '#counted': COUNTED_IN, '#v': 'version' },
              ExpressionAttributeValues: { ':org': orgId, ':v': p.version },
            },
          },
          onConditionFail: () => new Changed(),
        },
        countChange(orgId, 'POLICY', 1),
      ]);
      added++;
    } catch (e) {
      if (!(e instanceof Changed)) throw e;
    }
  }
  await writeItems([
    {
      op: {
        Update: {
          TableName: tableName(),
          Key: orgKeys.counter(orgId, 'POLICY'),
          UpdateExpression: 'SET #exact = :yes, entity = :e ADD n :zero',
          ExpressionAttributeNames: { '#exact': EXACT },
          ExpressionAttributeValues: { ':yes': true, ':e': 'counter', ':zero': 0 },
        },
      },
    },
  ]);
  return added;
}

/** Counts the uncounted policies of every organisation whose count is not exact yet (safe to run again). */
export async function saveMissingPolicyCounts(): Promise<{ organisations: number; policies: number }> {
  let organisations = 0;
  let policies = 0;
  for (const orgId of (await scanStoredOrganisations('id')).map((i) => String(i.id))) {
    const counter = await getItem(orgKeys.counter(orgId, 'POLICY'), true);
    if (counter?.[EXACT] === true) continue;
    organisations++;
    policies += await countOrganisation(orgId);
  }
  return { organisations, policies };
}
