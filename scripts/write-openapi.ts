/** npm run openapi: writes the generated document to openapi.json at the project root. */
import { writeFileSync } from 'node:fs';
import { openApiDocument } from '../shared/openapi/document';

writeFileSync('openapi.json', `${JSON.stringify(openApiDocument(), null, 2)}\n`);
console.log('wrote openapi.json');
