/**
 * npm run claims:report (docs/using/serving-apis.md): the listen claims stored before the
 * routing rules of contract §13 that break them, for an operator to settle with the APIs' owners:
 * custom domains not granted to the API's organisation, the root on the shared hosts, and listen
 * paths nesting with another organisation's there. The external authorization never chooses such
 * a claim where it breaks the rules (the outermost of a nesting keeps its traffic); this says which
 * APIs are affected. Exits 1 when any claim breaks them, so a deploy pipeline can stop on it.
 * With `--count`, it also sets each host's count of listen paths (the managed data plane's bound,
 * docs/operating/data-plane.md) to the claims stored there: once, when an installation whose APIs
 * were written before the count existed turns the data plane on.
 *
 * Reads the table named by TABLE_NAME (default gw-management): in the cloud with the caller's AWS
 * credentials (it needs dynamodb:Scan on it, which no function of the stack has); locally with
 * DYNAMODB_ENDPOINT, or, when that is unset, the local stage's DynamoDB Local in DATA_DIR (stop
 * `npm start` first: two processes should not open one database).
 */
import { join, resolve } from 'node:path';
import { resetConfig } from '../shared/config';
import { claimViolations, type ClaimViolation } from '../shared/domain/listen-paths';
import { recountHostClaims } from '../shared/store/host-claim-counts';
import { scanClaimsAndGrants } from '../shared/store/listen-claims';
import { startDynamoLocal, type DynamoLocal } from '../infra/local/dynamodb-local';

const describe = (v: ClaimViolation): string => {
  const c = v.claim;
  const where = c.domain ? `${c.domain}${c.path}` : `(shared)${c.path}`;
  const other = v.with ? ` with ${v.with.path} of organisation ${v.with.org_id} (API ${v.with.api_id})` : '';
  return `${where}  API ${c.api_id} of organisation ${c.org_id}: ${v.rule}${other}; ${v.served ? 'still served' : 'not served'}`;
};

async function main(): Promise<number> {
  const env = process.env;
  env.TABLE_NAME ||= 'gw-management';
  let dynamo: DynamoLocal | undefined;
  if (!env.DYNAMODB_ENDPOINT && !env.AWS_REGION) {
    dynamo = await startDynamoLocal(join(resolve(env.DATA_DIR || '.data'), 'dynamodb'));
    env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  }
  resetConfig();
  try {
    const { claims, grants } = await scanClaimsAndGrants();
    const violations = claimViolations(claims, grants);
    console.log(`${claims.length} listen claims, ${grants.size} granted domains in table ${env.TABLE_NAME}`);
    for (const v of violations) console.log(describe(v));
    console.log(violations.length ? `${violations.length} claims break the routing rules (contract §13)` : 'every claim keeps the routing rules');
    if (process.argv.includes('--count')) {
      const { set, moved } = await recountHostClaims(claims);
      for (const [host, n] of set) console.log(`count set: ${host || '(shared)'} holds ${n} listen paths`);
      for (const host of moved) console.log(`count not set: ${host || '(shared)'} changed while counting; run again`);
      if (moved.length) return 1;
    }
    return violations.length ? 1 : 0;
  } finally {
    await dynamo?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(2);
  },
);
