/** The document's tags: one per route group (shared/routes.ts routeGroups), in the document's order. */
export const TAGS = [
  { name: 'system', description: 'The health check and this document; no credential' },
  { name: 'organisations', description: 'Organisations (admin)' },
  { name: 'users', description: 'Dashboard users and their access keys: admin issues them, the dashboard lists them' },
  { name: 'apis', description: 'API definitions in classic and OAS form, versions, listing and deletion' },
  { name: 'imports', description: 'OpenAPI import (JSON, YAML or by URL) and the streams patch' },
  { name: 'keys', description: 'Gateway keys with their live quotas, and organisation-wide sessions' },
  { name: 'policies', description: 'Policies keys apply' },
  { name: 'sessions', description: 'The data-plane check: a key spends its quota' },
  { name: 'assets', description: 'Templates (assets) an import can start from' },
  { name: 'hooks', description: 'Webhooks of an organisation' },
  { name: 'oauth', description: 'OAuth clients of an API' },
  { name: 'analytics', description: 'Request records from gateways, and key activity' },
  { name: 'audit', description: 'The audit trail: who changed which configuration object, and the change itself (contract §12)' },
  { name: 'routing', description: 'The routing table gateways read: every route of the stored definitions, per host' },
  { name: 'billing', description: 'Usage for billing (admin): what the check allowed and refused, per organisation, API, day and month' },
];
