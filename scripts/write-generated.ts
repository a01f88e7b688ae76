/**
 * npm run generate: writes every generated file the repository keeps (scripts/generated-files.ts):
 * gwctl's copy of the OpenAPI document and the typed clients' types (gwctl's and the console's).
 * The clients import nothing of the service: a route, parameter or body the document lacks does
 * not compile in them.
 */
import { writeFileSync } from 'node:fs';
import { generatedFiles } from './generated-files';

for (const { path, text } of await generatedFiles()) {
  writeFileSync(path, text);
  console.log(`wrote ${path}`);
}
