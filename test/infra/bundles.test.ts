/**
 * Cold starts (infra/bundling.ts): the deployed bundles load only what every request needs. The
 * Secrets Manager client is a chunk of its own, imported on first use and only by functions that
 * read a secret; the SDK's credential chain is the environment provider alone (no SSO, INI,
 * process, web identity or STS code shipped); yaml ships once, beside the import function; the
 * Tracer and the X-Ray SDK are a chunk loaded only by a sampled invocation (shared/observability/tracer.ts).
 */
import { build, type Metafile } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { esbuildOptions, writeOpenApiBeside } from '../../infra/bundling';
import { openApiDocument } from '../../shared/openapi/document';
import { routeGroups, routes } from '../../shared/routes';

const ROOT = process.cwd();
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function deployed(entry: string, nodeModules: readonly string[] = []): Promise<Metafile> {
  const outdir = mkdtempSync(join(tmpdir(), 'bundle-'));
  dirs.push(outdir);
  return (await build({ ...esbuildOptions(nodeModules), entryPoints: [join(ROOT, entry)], outdir, metafile: true, logLevel: 'silent' })).metafile;
}

/** Output files index.mjs reaches by static imports (what a cold start loads) and the others. */
function split(meta: Metafile): { atStart: string[]; onDemand: string[] } {
  const seen = new Set<string>();
  const walk = (out: string) => {
    if (seen.has(out)) return;
    seen.add(out);
    for (const i of meta.outputs[out]!.imports) if (i.kind === 'import-statement' && meta.outputs[i.path]) walk(i.path);
  };
  walk(Object.keys(meta.outputs).find((o) => o.endsWith('index.mjs'))!);
  return { atStart: [...seen], onDemand: Object.keys(meta.outputs).filter((o) => !seen.has(o) && o.endsWith('.mjs')) };
}

const packagesIn = (meta: Metafile, outputs: string[]) =>
  new Set(
    outputs
      .flatMap((o) => Object.keys(meta.outputs[o]!.inputs))
      .map((i) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(i)?.[1])
      .filter(Boolean),
  );

describe('function bundles', () => {
  it('the check loads the Secrets Manager client only on first use, from a chunk of its own', async () => {
    const meta = await deployed(routes.sessionsCheck.entry);
    const { atStart, onDemand } = split(meta);
    expect(packagesIn(meta, atStart).has('@aws-sdk/client-secrets-manager')).toBe(false);
    expect(packagesIn(meta, onDemand).has('@aws-sdk/client-secrets-manager')).toBe(true);
    // index.mjs imports that chunk dynamically: it is read when a secret is first needed.
    const dynamic = meta.outputs[atStart.find((o) => o.endsWith('index.mjs'))!]!.imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path);
    expect(dynamic.some((d) => packagesIn(meta, [d]).has('@aws-sdk/client-secrets-manager'))).toBe(true);
  });

  it('no function loads the X-Ray SDK at start: the Tracer is a chunk a sampled invocation imports', async () => {
    for (const entry of [routes.sessionsCheck.entry, routes.keysGet.entry, routes.hooksCreate.entry]) {
      const meta = await deployed(entry);
      const { atStart, onDemand } = split(meta);
      for (const pkg of ['aws-xray-sdk-core', '@aws-lambda-powertools/tracer']) {
        expect(packagesIn(meta, atStart).has(pkg), `${entry} loads ${pkg} at start`).toBe(false);
        expect(packagesIn(meta, onDemand).has(pkg), `${entry} ships ${pkg} on demand`).toBe(true);
      }
    }
  });

  it('re2js is a chunk read on first use: the check, ext-authz and key writes do not load it at start', async () => {
    for (const entry of [routes.sessionsCheck.entry, routes.sessionsExtAuthz.entry, routes.keysDashboardCreate.entry, routes.policiesCreate.entry]) {
      const meta = await deployed(entry);
      const { atStart, onDemand } = split(meta);
      expect(packagesIn(meta, atStart).has('re2js'), `${entry} loads re2js at start`).toBe(false);
      expect(packagesIn(meta, onDemand).has('re2js'), `${entry} ships re2js on demand`).toBe(true);
    }
  });

  it('ipaddr.js is never loaded at start: only an import by URL and an upstream allow-list need it, on first use', async () => {
    for (const entry of [routes.hello.entry, routes.keysGet.entry, routes.oasUpdate.entry]) {
      const meta = await deployed(entry);
      expect(packagesIn(meta, split(meta).atStart).has('ipaddr.js'), `${entry} loads ipaddr.js at start`).toBe(false);
    }
    for (const entry of [routes.oasImport.entry, routes.streamsPatch.entry]) {
      const meta = await deployed(entry);
      const { atStart, onDemand } = split(meta);
      expect(packagesIn(meta, atStart).has('ipaddr.js'), `${entry} loads ipaddr.js at start`).toBe(false);
      expect(packagesIn(meta, onDemand).has('ipaddr.js'), `${entry} ships ipaddr.js on demand`).toBe(true);
    }
  });

  it('a function builds no schema it does not read: a store that needs a value list reads it without building the schemas beside it', async () => {
    // The asset store read its kind from the asset schemas (the whole OAS extension), the key requests'
    // store its states from the portal's, the check's refusal tallies their reasons from billing's.
    const sources = (meta: Metafile) => new Set(split(meta).atStart.flatMap((o) => Object.keys(meta.outputs[o]!.inputs)));
    const entries = [routes.organisationsDelete.entry, routes.organisationsGet.entry, 'functions/organisations/offboarding-feed.ts'];
    for (const entry of entries) {
      const atStart = sources(await deployed(entry));
      for (const schema of ['shared/schemas/api-oas.ts', 'shared/schemas/portal.ts', 'shared/schemas/billing.ts'])
        expect(atStart.has(schema), `${entry} builds ${schema} at start`).toBe(false);
    }
    const check = sources(await deployed(routes.sessionsCheck.entry));
    expect(check.has('shared/schemas/billing.ts'), 'the check builds the usage schemas at start').toBe(false);
  });

  /** The longest part of a route's summary that any printer writes as it is: no quote, escape or non-ASCII character. */
  const probe = (summary: string) => {
    const plain = summary
      .split(/["'`\\$\u0080-\uffff]/)
      .reduce((a, b) => (b.length > a.length ? b : a))
      .slice(0, 40);
    expect(plain.length, summary).toBeGreaterThanOrEqual(12);
    return plain;
  };

  it('a function holds its own route and no other route of its group', async () => {
    // The declarations of shared/route-groups and shared/schemas are pure (test/unit/pure-declarations.test.ts), so esbuild
    // drops those the function's code does not reach, with the schemas only they read; the group object is the table's.
    for (const [own, group] of [
      [routes.portalMe, routeGroups.portal],
      [routes.hooksCreate, routeGroups.hooks],
      [routes.keysGet, routeGroups.keys],
    ] as const) {
      const meta = await deployed(own.entry);
      const text = split(meta)
        .atStart.map((o) => readFileSync(o, 'utf8'))
        .join('\n');
      expect(text, own.name).toContain(probe(own.summary));
      for (const other of Object.values(group).filter((r) => r.name !== own.name))
        expect(text.includes(probe(other.summary)), `${own.name} holds ${other.name}`).toBe(false);
    }
  });

  it("no function carries zod's other languages or its JSON Schema reader (what its named export z would pull in)", async () => {
    for (const entry of [routes.auditList.entry, routes.keysList.entry]) {
      const meta = await deployed(entry);
      // What the bundle holds of each input (the metafile lists every input read, tree-shaken or not).
      const held = Object.values(meta.outputs).flatMap((o) =>
        Object.entries(o.inputs)
          .filter(([, v]) => v.bytesInOutput > 0)
          .map(([i]) => i),
      );
      // English is zod's own messages; the other languages come only with the namespace object.
      const zod = held.filter((i) => /node_modules\/zod\/v4\/(locales\/(?!en\.js)|classic\/from-json-schema)/.test(i));
      expect(zod, entry).toEqual([]);
    }
  });

  it('GET /openapi.json answers, bundled, the very bytes of the document the route table builds now', async () => {
    const outdir = mkdtempSync(join(tmpdir(), 'bundle-'));
    dirs.push(outdir);
    const { metafile } = await build({ ...esbuildOptions(), entryPoints: [join(ROOT, routes.openapi.entry)], outdir, metafile: true, logLevel: 'silent' });
    writeOpenApiBeside(outdir, metafile);
    const { handler } = (await import(pathToFileURL(join(outdir, 'index.mjs')).href)) as {
      handler: (e: unknown, c: unknown) => Promise<{ statusCode: number; body: string }>;
    };
    const event = {
      version: '2.0',
      routeKey: 'GET /openapi.json',
      rawPath: '/openapi.json',
      rawQueryString: '',
      headers: {},
      requestContext: { requestId: 'bundle-test', http: { method: 'GET', path: '/openapi.json' } },
      isBase64Encoded: false,
    };
    const answer = await handler(event, { getRemainingTimeInMillis: () => 10_000, functionName: 'openapi', awsRequestId: 'bundle-test' });
    expect(answer.statusCode).toBe(200);
    expect(answer.body === JSON.stringify(openApiDocument())).toBe(true);
  });

  it('GET /openapi.json ships no document builder and no document as code: the document is a file beside the bundle', async () => {
    const meta = await deployed('functions/system/openapi.ts');
    const inputs = Object.values(meta.outputs).flatMap((o) => Object.keys(o.inputs));
    expect(inputs.filter((i) => i.includes('shared/openapi/document'))).toEqual([]);
    const { atStart } = split(meta);
    const startBytes = atStart.reduce((n, o) => n + meta.outputs[o]!.bytes, 0);
    // With the document inside, the bundle at start was larger than the document itself (1.5 MB against 0.8 MB).
    expect(startBytes).toBeLessThan(JSON.stringify(openApiDocument()).length);
  });

  it('a function that reads no secret ships no Secrets Manager code', async () => {
    const meta = await deployed('test/infra/fixtures/table-only.ts');
    expect(packagesIn(meta, Object.keys(meta.outputs)).has('@aws-sdk/client-secrets-manager')).toBe(false);
  });

  it('the credential chain is the environment provider alone', async () => {
    for (const entry of [routes.sessionsCheck.entry, routes.keysGet.entry]) {
      const meta = await deployed(entry);
      const shipped = packagesIn(meta, Object.keys(meta.outputs));
      expect(shipped.has('@aws-sdk/credential-provider-env')).toBe(true);
      for (const unused of [
        'credential-provider-node',
        'credential-provider-sso',
        'credential-provider-ini',
        'credential-provider-process',
        'credential-provider-web-identity',
        'nested-clients',
      ]) {
        expect(shipped.has(`@aws-sdk/${unused}`), `${entry} ships ${unused}`).toBe(false);
      }
    }
  });

  it('yaml ships once in the import function: beside the bundle, with the validator that needs it', async () => {
    const meta = await deployed(routes.oasImport.entry, routes.oasImport.nodeModules);
    expect(packagesIn(meta, Object.keys(meta.outputs)).has('yaml')).toBe(false);
    expect(routes.oasImport.nodeModules).toContain('yaml');
  });
});
