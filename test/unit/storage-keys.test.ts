/**
 * "A resource's storage keys are built only in its own store module" (docs/developing/layout.md and "Data
 * model"): every key literal of the single table (an uppercase prefix and `#`, such as
 * `ORG#${org}#HOOK#${id}`) sits in the store module of the resource it belongs to, and nowhere else.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every key shape of the table (`*` for a value) and the module under shared/store/ that builds it. */
const OWNER: Record<string, string> = {
  'ORG#*': 'organisations',
  'COUNT#*': 'organisations',
  'USER#*': 'users',
  'ORG#*#USERS': 'users',
  'ORG#*#EMAIL#*': 'users',
  'AKEY#*': 'users',
  'IDEMP#*#*': 'idempotency',
  'REPLY#*': 'idempotency',
  'API#*': 'apis',
  'PART#': 'apis',
  'PART#*': 'apis',
  'APIDB#*': 'apis',
  'ORG#*#APIS': 'apis',
  'LISTEN#*': 'listen-claims',
  'SHARED#*': 'listen-claims',
  'PATH#*': 'listen-claims',
  'PATH#*/': 'listen-claims',
  'DOMAIN#*': 'domain-grants',
  'DOMAINS#ALL': 'domain-grants',
  'ROUTES#CLAIMS': 'listen-claims',
  'ROUTES#HOSTS': 'host-claim-counts',
  'BILLDAY#*#*': 'usage-figures',
  'BILLMONTH#*#*': 'usage-figures',
  'BILLMARK#*': 'usage-figures',
  'USAGEREF#*#*': 'usage-tallies',
  'OFFBOARD#*': 'offboarding',
  'IMPORT#*': 'import-runs',
  'CHUNK#*': 'import-runs',
  'HOST#*': 'host-claim-counts',
  'CLAIM#*': 'listen-claims',
  'ROUTES#VERSION': 'routing-version',
  'VERSION#*': 'routing-version',
  'ORG#*#DOMAINS': 'domain-grants',
  'GATEWAYS#ALL': 'gateway-reports',
  'GATEWAY#*': 'gateway-reports',
  'GATEWAY#': 'gateway-reports',
  'OAUTH#*': 'oauth-clients',
  'API#*#OAUTH': 'oauth-clients',
  'KEY#*': 'keys',
  'ORG#*#KEYS': 'keys',
  'ORG#*#POLICIES': 'policies',
  'AUSE#*#*': 'api-usage',
  'QUOTA#*': 'keys',
  'SHARD#*#*': 'keys',
  'SHARD#*#': 'keys',
  'ORG#*#KEYUSER#*': 'keys',
  'POLICY#*': 'policies',
  'ORG#*#HOOK#*': 'hooks',
  'ORG#*#HOOKS': 'hooks',
  'EVENT#*': 'events',
  'HOOKDLV#*#*': 'hook-deliveries',
  'DLV#': 'hook-deliveries',
  'DLV#*': 'hook-deliveries',
  'HOOKCOOL#*#*#*#*': 'hook-deliveries',
  'HOOKBUDGET#*': 'delivery-budget',
  'ORG#*#ASSET#*': 'assets',
  'ORG#*#ASSETID#*': 'assets',
  'ORG#*#ASSETS': 'assets',
  'KACT#*': 'key-activity',
  'ANBATCH#*': 'analytics-batches',
  'CHUNK#*#': 'analytics-batches',
  'CHUNK#*#*': 'analytics-batches',
  'ORGLIMIT#*#*': 'org-limits',
  'W#*': 'org-limits',
  'ORG#*#PORTAL': 'portal',
  'PORTALS#DOMAINS': 'portal',
  'ENTRY#*': 'portal',
  'ENTRY#': 'portal',
  'DEV#*': 'developers',
  'ORG#*#DEVS': 'developers',
  'ORG#*#DEVEMAIL#*': 'developers',
  'DEVSESSION#*': 'developers',
  'INVITE#*': 'developers',
  'SIGNIN#*': 'developers',
  'ACCT#*': 'developers',
  'ORG#*#DEVTOKENS': 'developers',
  'SRC#*': 'developers',
  'AT#*': 'developers',
  'KEYREQ#*': 'key-requests',
  'ORG#*#KEYREQS#*': 'key-requests',
  'DEV#*#KEYREQS': 'key-requests',
  'DELETED#*|*': 'db/audit-stamp',
  'AUDIT#*': 'audit-log',
  'ORG#*#AUDIT': 'audit-log',
  'AUDITOBJ#*': 'audit-log',
};

/** The service's own code; bench/ writes keys of its own for raw DynamoDB baselines. */
const ROOTS = ['shared', 'functions', 'infra', 'scripts'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || path === join('infra', 'local', 'lambda-node')) return [];
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Template literals and quoted strings that start like a storage key. */
function keyLiterals(source: string): string[] {
  const templates = [...source.matchAll(/`([^`]*)`/g)].map((m) => m[1]!.replace(/\$\{[^}]*\}/g, '*'));
  const quoted = [...source.matchAll(/'([^'\n]*)'/g)].map((m) => m[1]!);
  return [...templates, ...quoted].filter((s) => /^[A-Z][A-Z0-9_]*#/.test(s));
}

const found = ROOTS.flatMap(files).flatMap((file) => keyLiterals(readFileSync(file, 'utf8')).map((shape) => ({ file, shape })));

describe('storage keys', () => {
  it('are built only in the store module of their resource', () => {
    const misplaced = found.filter((f) => f.file !== join('shared', 'store', `${OWNER[f.shape] ?? '(unknown key shape)'}.ts`));
    expect(misplaced.map((f) => `${f.shape} in ${f.file}, owner ${OWNER[f.shape] ?? 'not declared above'}`)).toEqual([]);
  });

  it('every declared key shape is still built', () => {
    expect([...new Set(found.map((f) => f.shape))].sort()).toEqual(Object.keys(OWNER).sort());
  });
});
