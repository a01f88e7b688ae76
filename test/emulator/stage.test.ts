/**
 * The deployed form, proven: the stack synthesized with real bundling, served by `npm run emulate`
 * (each function's bundle on Lambda's Node, IAM from the template enforced on every storage and
 * secret call), answers every route as the source stage (`npm start`'s server) does:
 * - the routes the template serves are exactly the route table's built routes;
 * - the same credential sweep (test/support/credential-sweep.ts);
 * - one success and one refusal per route, walked in the same order on both stages, with the same
 *   status for every request;
 * - 404, 405 and 413 with X-Request-Id under every prefix (test/support/edge-answers.ts);
 * - and not one IAM denial, function error or INIT failure on the real template.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../../console/host/headers';
import { readCloudStage } from '../../infra/local/emulator/template';
import { LAMBDA_NODE_MAJOR, LAMBDA_RUNTIME } from '../../infra/runtime';
import { closedRoutes } from '../../shared/http/route-match';
import { openApiDocument } from '../../shared/openapi/document';
import { routeList } from '../../shared/routes';
import { walkRoutes, type Walk } from '../hardening/support/route-walk';
import { cloudAssembly } from '../support/assembly';
import { describeCredentialSweep } from '../support/credential-sweep';
import { describeEdgeAnswers } from '../support/edge-answers';
import { linesOf, startEmulatedStage, startStage, type EmulatedStage, type Stage } from '../support/stage';

let emulated: EmulatedStage;
let served: Set<string>;
beforeAll(async () => {
  const { template } = await cloudAssembly();
  served = new Set(readCloudStage(template, { region: 'us-east-1', account: '0', tableName: 't' }).routes.map((r) => r.routeKey));
  emulated = await startEmulatedStage(template);
}, 900_000);
afterAll(() => emulated?.close());

describe('npm run emulate serves the synthesized stack', () => {
  it('serves exactly the built routes of the route table and the closed ones (a route missing from either side fails)', () => {
    const closed = closedRoutes(routeList).map((r) => `${r.method} ${r.path}`);
    expect([...served].sort()).toEqual([...routeList.map((r) => `${r.method} ${r.path}`), ...closed].sort());
  });

  it(`runs every function on Lambda's Node (${LAMBDA_RUNTIME}, node v${LAMBDA_NODE_MAJOR})`, () => {
    const banner = emulated.log.find((l) => l.trim().startsWith('functions'));
    expect(banner).toMatch(new RegExp(`${LAMBDA_RUNTIME} on node v${LAMBDA_NODE_MAJOR}\\.`));
  });

  it('serves the web console at /console/ with its Content-Security-Policy (built by synth)', async () => {
    const page = await fetch(`${emulated.url}/console/keys`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(await page.text()).toContain('<div id="app">');
  });

  it("answers GET /openapi.json with the document built at synth, read from the files beside the function's code", async () => {
    const plain = await fetch(`${emulated.url}/openapi.json`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.status).toBe(200);
    expect([plain.headers.get('content-encoding'), plain.headers.get('vary')]).toEqual([null, 'Accept-Encoding']);
    const text = await plain.text();
    expect(JSON.parse(text)).toEqual(openApiDocument());
    // Compressed at synth: the bytes API Gateway is handed decode to the same document (fetch decodes them).
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const r = await fetch(`${emulated.url}/openapi.json`, { headers: { 'accept-encoding': accept } });
      expect([r.status, r.headers.get('content-encoding'), r.headers.get('vary')]).toEqual([200, encoding, 'Accept-Encoding']);
      expect(Number(r.headers.get('content-length'))).toBeLessThan(text.length / 10);
      expect(await r.text()).toBe(text);
    }
    const stage = readCloudStage((await cloudAssembly()).template, { region: 'us-east-1', account: '0', tableName: 't' });
    const codeDir = [...stage.functions.values()].find((f) => f.name === 'openapi')?.codeDir ?? '';
    // The document is a file beside the code, not code the function parses at start.
    for (const file of ['openapi.json', 'openapi.json.br', 'openapi.json.gzip']) expect(existsSync(join(codeDir, file))).toBe(true);
    expect(statSync(join(codeDir, 'index.mjs')).size).toBeLessThan(400_000);
  });

  it('shows cold and warm invocations: INIT duration on the first REPORT of a container only', async () => {
    for (let i = 0; i < 2; i++) expect((await emulated.call('GET', '/hello')).status).toBe(200);
    // The REPORT line is written after the answer has gone out (as on Lambda), so it can arrive a moment later.
    const reports = await vi.waitFor(
      () => {
        const lines = linesOf(emulated, 'REPORT').filter((l) => l.startsWith('REPORT hello '));
        expect(lines.length).toBeGreaterThanOrEqual(2);
        return lines;
      },
      { timeout: 10_000 },
    );
    expect(reports[0]).toMatch(/Init Duration: \d+\.\d+ ms$/);
    expect(reports.at(-1)).not.toMatch(/Init Duration/);
  });
});

describeCredentialSweep(
  'credential sweep through npm run emulate',
  () => emulated,
  () => served,
);

describeEdgeAnswers("404, 405 and 413 through npm run emulate (the $default route's function, each write route's function)", () => emulated);

describe('one success and one refusal per route, as through npm start', () => {
  let source: Stage;
  let onSource: Walk;
  let onEmulator: Walk;
  beforeAll(async () => {
    source = await startStage();
    onSource = await walkRoutes(source.url);
    onEmulator = await walkRoutes(emulated.url);
  }, 600_000);
  afterAll(async () => {
    if (onEmulator) {
      const reports = linesOf(emulated, 'REPORT');
      console.log(
        `emulator walk: ${onEmulator.answers.length} requests over ${routeList.length} routes (source stage: ${onSource.answers.length}); ` +
          `${reports.length} invocations, ${reports.filter((l) => /Init Duration/.test(l)).length} cold; ${linesOf(emulated, 'DENIED').length} IAM denials`,
      );
    }
    await source?.close();
  });

  it('every route answers 2xx and refuses with a 4xx through the emulator', () => {
    expect(onEmulator.seedProblems).toEqual([]);
    expect(onEmulator.noSuccess).toEqual([]);
    expect(onEmulator.noRefusal).toEqual([]);
    expect(onEmulator.answers.length).toBeGreaterThan(routeList.length * 2);
  });

  it('every request of the walk answers the same status on both stages', () => {
    const differences = onEmulator.answers
      .map((a, i) => ({ i, route: a.route, emulator: a.status, source: onSource.answers[i]?.status, sourceRoute: onSource.answers[i]?.route }))
      .filter((d) => d.emulator !== d.source || d.route !== d.sourceRoute);
    expect(onEmulator.answers.length).toBe(onSource.answers.length);
    expect(differences).toEqual([]);
  });

  it('needed no permission the template does not grant, and no function failed', () => {
    expect(linesOf(emulated, 'DENIED')).toEqual([]);
    expect(linesOf(emulated, 'ERROR')).toEqual([]);
    expect(linesOf(emulated, 'INIT_REPORT')).toEqual([]);
    // Each function's first request was a cold start with a measured INIT.
    const cold = new Set(
      linesOf(emulated, 'REPORT')
        .filter((l) => /Init Duration/.test(l))
        .map((l) => l.split(' ')[1]),
    );
    expect(cold.size).toBeGreaterThanOrEqual(routeList.length);
  });
});
