import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { END, PERMISSIONS_END, PERMISSIONS_START, permissionsMarkdown, routesMarkdown, sectionOf, START } from '../../scripts/routes-table';

const readme = () => readFileSync('README.md', 'utf8');

it('README routes section matches the route table (npm run readme:routes)', () => {
  expect(sectionOf(readme(), START, END)).toBe(routesMarkdown());
});

it('README permissions table matches the route table: each group with the routes that need read and write on it (npm run readme:routes)', () => {
  expect(sectionOf(readme(), PERMISSIONS_START, PERMISSIONS_END)).toBe(permissionsMarkdown());
});

it('the permissions table lists every dashboard route that needs a group, the audit trail under audit', () => {
  const table = permissionsMarkdown();
  expect(table).toMatch(/^\| `audit` \|.*`GET \/api\/audit-log`/m);
  expect(table).not.toContain('GET /api/users/me');
});
