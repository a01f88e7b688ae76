/**
 * npm run gwctl:contract: writes the service's OpenAPI document and the types openapi-typescript
 * generates from it into tools/gwctl/generated/. gwctl is a client of the document alone (it imports
 * nothing of the service): its requests are typed by these types and `gwctl validate` checks files
 * offline against this copy's schemas. test/unit/gwctl-contract.test.ts fails when the copy is stale.
 */
import { writeFileSync } from 'node:fs';
import { gwctlContract } from './gwctl-contract';

const { document, types } = await gwctlContract();
writeFileSync('tools/gwctl/generated/openapi.json', document);
writeFileSync('tools/gwctl/generated/api.d.ts', types);
console.log('wrote tools/gwctl/generated/openapi.json and api.d.ts');
