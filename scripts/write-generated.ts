/**
 * npm run generate: writes every generated file the repository keeps (scripts/generated-files.ts):
 * gwctl's copy of the OpenAPI document and the typed clients' types (gwctl's and the console's),
 * and the tables of the docs made from the route table (routes, permissions).
 * The clients import nothing of the service: a route, parameter or body the document lacks does
 * not compile in them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { generatedFiles } from './generated-files';
import { generatedSections } from './routes-table';

for (const { path, text } of await generatedFiles()) {
  writeFileSync(path, text);
  console.log(`wrote ${path}`);
}
// The tables of the docs that the route table makes (routes, permissions), between their markers.
for (const { path, text } of generatedSections((f) => readFileSync(f, 'utf8'))) {
  writeFileSync(path, text);
  console.log(`wrote the generated tables of ${path}`);
}
