/**
 * npm run index-organisations: lists the organisations a release without GET /admin/organisations
 * stored (its index keys and the installation's count), so the list holds every one
 * (docs/reference/lists.md). Run it once after deploying the release that lists them, with the
 * operator's AWS credentials and the stage's table
 * (`TABLE_NAME=gw-management-prod AWS_REGION=eu-west-1 npm run index-organisations`); `npm start`
 * runs it on its own table at every start. Running it again changes nothing.
 */
import { saveMissingOrganisationIndexes } from '../shared/store/organisations';

const listed = await saveMissingOrganisationIndexes();
console.log(`listed ${listed} organisations stored before the installation's list existed; every organisation is listed now`);
