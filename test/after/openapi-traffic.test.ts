/**
 * Every answer the e2e suites got from a stage (test/support/record-traffic.ts) matches the
 * OpenAPI document the stage serves: its operation lists the status, the body is valid against
 * that status's schema, and the headers it declares are present and valid. Validation is
 * openapi-backend's (its router and its Ajv validators, on Ajv's draft 2020-12 dialect, the one
 * the document declares); answers to requests no operation takes are held to the document's
 * components.responses (UnknownPath, MethodNotAllowed). Every request the stage accepted is also
 * valid against the document: it is never stricter than the server.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { openApiDocument } from '../../shared/openapi/document';
import { ajvFor, documentApi as api, documentPathOf, operationOf } from '../support/document-check';
import type { RecordedExchange } from '../support/record-traffic';

interface Report {
  file: string;
  exchanges: RecordedExchange[];
}

type Json = Record<string, any>;

const dir = inject('trafficDir');
const reports: Report[] = readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Report);
const document = openApiDocument() as Json;

/** The document's own out-of-operation answers, compiled against its components. */
const outside = ajvFor({});
outside.addSchema(document, 'doc');
const outsideSchema = (name: string) => outside.compile({ $ref: `doc#/components/responses/${name}/content/application~1json/schema` });

const lower = (headers: Record<string, unknown>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

/** What is wrong with one answer, as readable lines (none when it matches the document). */
function violations(x: RecordedExchange): string[] {
  const url = new URL(x.path, 'http://stage');
  const query = Object.fromEntries(url.searchParams);
  const operation = operationOf(x.method, url.pathname, query);
  const documented = operation ? ((operation.responses as Json)[String(x.status)] as Json | undefined) : undefined;
  if (documented && (!documented.content || x.method === 'HEAD')) {
    // An answer documented without a body (an external authorization's allow), or any answer to
    // HEAD (HTTP sends it without the body it describes): no body, its headers.
    const headers = api.validator.validateResponseHeaders(x.headers, operation!, { statusCode: x.status });
    return [
      ...(x.body === '' ? [] : [`a body where none is documented: ${x.body.slice(0, 80)}`]),
      ...(headers.errors ?? []).map((e) => `header ${e.instancePath} ${e.message}`),
    ];
  }
  const type = (x.headers['content-type'] ?? '').split(';')[0]!.trim();
  if (documented?.content && type !== 'application/json') {
    // A body of another media type the operation documents (a CSV export): the type is one it
    // names, the body a string, and its headers as documented.
    const headers = api.validator.validateResponseHeaders(x.headers, operation!, { statusCode: x.status });
    return [
      ...(type in documented.content ? [] : [`Content-Type ${type} is not one ${operation!.operationId} documents`]),
      ...(x.body === '' ? ['an empty body'] : []),
      ...(headers.errors ?? []).map((e) => `header ${e.instancePath} ${e.message}`),
    ];
  }
  let body: unknown;
  try {
    body = JSON.parse(x.body);
  } catch {
    return [`the body is not JSON: ${x.body.slice(0, 80)}`];
  }
  const out: string[] = [];
  if (!/^application\/json\b/.test(x.headers['content-type'] ?? '')) out.push(`Content-Type ${x.headers['content-type']} is not application/json`);
  let response: Json;
  if (!operation) {
    // No operation: the method is not one the path takes (405), or no route has the path (404).
    const name = x.status === 405 ? 'MethodNotAllowed' : 'UnknownPath';
    const validate = outsideSchema(name);
    if (x.status !== 404 && x.status !== 405) out.push(`a request no operation takes answered ${x.status}`);
    if (!validate(body)) out.push(...(validate.errors ?? []).map((e) => `body${e.instancePath} ${e.message}`));
    response = api.definition.components!.responses![name] as Json;
  } else {
    response = (operation.responses as Json)[String(x.status)];
    if (!response) return [`status ${x.status} is not documented for ${operation.operationId}`];
    const result = api.validator.validateResponse(body, operation, x.status);
    out.push(...(result.errors ?? []).map((e) => `body${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`));
    const headers = api.validator.validateResponseHeaders(x.headers, operation, { statusCode: x.status });
    out.push(...(headers.errors ?? []).map((e) => `header ${e.instancePath} ${e.message}`));
  }
  const sent = lower(x.headers);
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    if ((header as Json).required && sent[name.toLowerCase()] === undefined) out.push(`required header ${name} is missing`);
  }
  return out;
}

/**
 * Why a request the stage accepted would be refused by the document (none: the document is never
 * stricter than the server). JSON bodies and body-less requests; YAML and other texts are skipped.
 */
function requestViolations(x: RecordedExchange): string[] {
  const url = new URL(x.path, 'http://stage');
  const query = Object.fromEntries(url.searchParams);
  const operation = operationOf(x.method, url.pathname, query);
  if (!operation) return [];
  let body: unknown;
  if (x.requestBody !== undefined) {
    if (!/json/.test(x.requestType ?? '')) return [];
    body = JSON.parse(x.requestBody);
  } else if (x.requestType !== undefined) return [];
  const result = api.validator.validateRequest(
    { method: x.method, path: documentPathOf(url.pathname), query, headers: { 'content-type': x.requestType ?? '' }, body },
    operation,
  );
  return (result.errors ?? []).map((e) => `request${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
}

describe('every answer of the e2e suites matches the OpenAPI document', () => {
  it('saw the whole e2e suite (run `npx vitest run` for this check)', () => {
    const reported = new Set(reports.map((r) => r.file));
    const e2e = readdirSync(join(process.cwd(), 'test', 'e2e'))
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => `test/e2e/${f}`);
    expect(
      e2e.filter((f) => !reported.has(f)),
      'these e2e files did not run in this vitest run',
    ).toEqual([]);
  });

  it('the check finds an answer that breaks the document: a wrong member type, an undocumented status, a missing header', async () => {
    await api.init();
    const all = reports.flatMap((r) => r.exchanges);
    const keyRead = all.find((x) => x.method === 'GET' && x.path.startsWith('/gw/keys/') && x.status === 200);
    const listed = all.find((x) => x.method === 'GET' && x.path.startsWith('/api/users') && x.status === 200 && x.body.includes('"email_address"'));
    expect(keyRead && listed, 'a key read and a user list were recorded').toBeTruthy();
    expect(violations(keyRead!)).toEqual([]);
    expect(violations(listed!)).toEqual([]);
    const body = JSON.parse(keyRead!.body);
    expect(violations({ ...keyRead!, body: JSON.stringify({ ...body, rate: 'fast' }) }).join()).toMatch(/rate/);
    expect(violations({ ...keyRead!, status: 418 })).toEqual([expect.stringMatching(/status 418 is not documented/)]);
    const { 'x-request-id': _id, ...noId } = keyRead!.headers;
    expect(violations({ ...keyRead!, headers: noId })).toEqual(['required header X-Request-Id is missing']);
    const users = JSON.parse(listed!.body);
    users.users[0].unknown_member = 1;
    expect(violations({ ...listed!, body: JSON.stringify(users) }).join()).toMatch(/additional/);
    const created = all.find((x) => x.method === 'POST' && x.path === '/gw/policies' && x.status === 200)!;
    expect(requestViolations(created)).toEqual([]);
    expect(requestViolations({ ...created, requestBody: JSON.stringify({ ...JSON.parse(created.requestBody!), rate: 'fast' }) }).join()).toMatch(/rate/);
  });

  it('every example of the document (recorded from this traffic: npm run openapi:examples) is valid against its schema', async () => {
    await api.init();
    const wrong: string[] = [];
    let examples = 0;
    const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Json>>)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [type, media] of Object.entries((op.requestBody?.content ?? {}) as Record<string, Json>)) {
          if (media.example === undefined || !/json/.test(type)) continue;
          examples++;
          const validate = outside.compile({ $ref: `doc#/${pointer('paths', path, method, 'requestBody', 'content', type, 'schema')}` });
          if (!validate(media.example)) wrong.push(`${op.operationId} request: ${outside.errorsText(validate.errors)}`);
        }
        for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
          const example = response.content?.['application/json']?.example;
          if (example === undefined) continue;
          examples++;
          const result = api.validator.validateResponse(example, api.router.getOperation(op.operationId)!, Number(status));
          wrong.push(...(result.errors ?? []).map((e) => `${op.operationId} ${status}: ${e.instancePath} ${e.message}`));
        }
      }
    }
    expect(examples).toBeGreaterThan(100);
    expect(wrong).toEqual([]);
  });

  it('0 violations', async () => {
    await api.init();
    const found: string[] = [];
    let checked = 0;
    for (const report of reports) {
      for (const x of report.exchanges) {
        checked++;
        for (const v of violations(x)) found.push(`${report.file}: ${x.method} ${x.path.slice(0, 120)} -> ${x.status}: ${v}`);
        if (x.status < 300)
          for (const v of requestViolations(x)) found.push(`${report.file}: accepted ${x.method} ${x.path.slice(0, 120)} breaks the document: ${v}`);
      }
    }
    expect(checked).toBeGreaterThan(1000);
    expect([...new Set(found)].slice(0, 200), `${found.length} violations`).toEqual([]);
  });
});
