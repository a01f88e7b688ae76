/**
 * npm run count-policies: counts the policies a release without policy counts stored, so each
 * organisation's `Pages` of `GET /api/portal/policies` is exact (docs/reference/lists.md). Run it once
 * after deploying the release that counts them, with the operator's AWS credentials and the
 * stage's table (`TABLE_NAME=gw-management-prod AWS_REGION=eu-west-1 npm run count-policies`);
 * `npm start` runs it on its own table at every start. Running it again changes nothing.
 */
import { saveMissingPolicyCounts } from '../shared/store/policy-counts';

const { organisations, policies } = await saveMissingPolicyCounts();
console.log(`counted ${policies} policies of ${organisations} organisations whose policy count was not exact; every count is exact now`);
