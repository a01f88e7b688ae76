/** The tables the docs hold that are generated from the route table (npm run generate). */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { gatewayMembersMarkdown, MEMBERS_DOCUMENT, MEMBERS_END, MEMBERS_START } from '../../scripts/gateway-members-table';
import {
  END,
  PERMISSIONS_DOCUMENT,
  PERMISSIONS_END,
  PERMISSIONS_START,
  permissionsMarkdown,
  ROUTES_DOCUMENT,
  routesMarkdown,
  sectionOf,
  START,
} from '../../scripts/routes-table';

it('the routes table matches the route table (npm run generate)', () => {
  expect(sectionOf(readFileSync(ROUTES_DOCUMENT, 'utf8'), START, END)).toBe(routesMarkdown());
});

it('the permissions table matches the route table: each group with the routes that need read and write on it (npm run generate)', () => {
  expect(sectionOf(readFileSync(PERMISSIONS_DOCUMENT, 'utf8'), PERMISSIONS_START, PERMISSIONS_END)).toBe(permissionsMarkdown());
});

it('the permissions table lists every dashboard route that needs a group, the audit trail under audit', () => {
  const table = permissionsMarkdown();
  expect(table).toMatch(/^\| `audit` \|.*`GET \/api\/audit-log`/m);
  expect(table).not.toContain('GET /api/users/me');
});

it('the gateway members table matches GATEWAY_MEMBERS (npm run generate)', () => {
  expect(sectionOf(readFileSync(MEMBERS_DOCUMENT, 'utf8'), MEMBERS_START, MEMBERS_END)).toBe(gatewayMembersMarkdown());
});
