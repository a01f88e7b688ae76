/**
 * The APIs a definition lists as its versions, in either form: OAS `info.versioning.versions`
 * and classic `definition.versions` (version name -> api_id). A dashboard write may name only its
 * organisation's APIs (contract §2, §9a): another organisation's is 422 exactly like one that
 * exists nowhere, on every write path of either form. Gateway writes are trusted like the gateway
 * (contract §7): both forms store what they are sent.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { oasDoc, uid } from '../support/fixtures';
import { useStage, useTenants } from '../support/file-stage';

type Any = Record<string, any>;
const s = useStage();
const [mine, theirs] = useTenants(s, 2);
let theirApi: string;
let myApi: string;

const classic = (apiId: string, versions?: Any) => ({
  api_definition: {
    api_id: apiId,
    name: apiId,
    proxy: { listen_path: `/${apiId}/`, target_url: 'http://upstream.example' },
    ...(versions ? { definition: { enabled: true, location: 'header', key: 'x-api-version', name: 'v1', default: 'v1', versions } } : {}),
  },
});
const oas = (apiId: string, orgId: string, versions?: Any[]) =>
  oasDoc(
    apiId,
    orgId,
    versions ? { info: { versioning: { enabled: true, name: 'v1', default: 'v1', key: 'x-api-version', location: 'header', versions } } } : {},
  );

beforeAll(async () => {
  theirApi = uid('their-api');
  myApi = uid('my-api');
  expect((await s.dash(theirs.key, 'POST', '/api/apis', classic(theirApi))).status).toBe(200);
  expect((await s.dash(mine.key, 'POST', '/api/apis', classic(myApi))).status).toBe(200);
});

/** The stored classic form of any API (404: nothing stored). */
const stored = (apiId: string) => s.gw('GET', `/gw/apis/${apiId}`);

/** The answer with the named id replaced, so a foreign id's answer can be compared with an unknown one's. */
const masked = (body: unknown, id: string) => JSON.stringify(body).replaceAll(id, '<id>');

describe("a dashboard write names only its organisation's APIs as versions, in either form", () => {
  it("POST /api/apis: definition.versions naming another organisation's API is 422 like an unknown one; nothing stored", async () => {
    const id = uid('classic-link');
    const foreign = await s.dash(mine.key, 'POST', '/api/apis', classic(id, { v2: theirApi }));
    expect(foreign.status, foreign.text).toBe(422);
    expect(foreign.body).toEqual({
      Status: 'Error',
      Message: `unknown API: ${theirApi}`,
      Meta: { errors: [{ path: 'definition.versions', message: 'names an API that does not exist' }] },
    });
    const unknown = await s.dash(mine.key, 'POST', '/api/apis', classic(id, { v2: 'no-such-api' }));
    expect(unknown.status).toBe(422);
    expect(masked(unknown.body, 'no-such-api')).toBe(masked(foreign.body, theirApi));
    expect((await stored(id)).status).toBe(404);
  });

  it('POST /api/apis/oas: the OAS form of the same link is 422 the same way', async () => {
    const id = uid('oas-link');
    const foreign = await s.dash(mine.key, 'POST', '/api/apis/oas', oas(id, mine.orgId, [{ id: theirApi, name: 'v2' }]));
    expect(foreign.status, foreign.text).toBe(422);
    expect(foreign.body.Message).toBe(`unknown API: ${theirApi}`);
    expect((await stored(id)).status).toBe(404);
  });

  it("PUT /api/apis/{apiID} of a classic API: a foreign version is 422 and the stored definition stays; the caller's own API is stored", async () => {
    const id = uid('classic-put');
    expect((await s.dash(mine.key, 'POST', '/api/apis', classic(id))).status).toBe(200);
    const before = (await stored(id)).body;
    const foreign = await s.dash(mine.key, 'PUT', `/api/apis/${id}`, classic(id, { v2: theirApi }));
    expect(foreign.status, foreign.text).toBe(422);
    expect(foreign.body.Message).toBe(`unknown API: ${theirApi}`);
    expect((await stored(id)).body).toEqual(before);
    const own = await s.dash(mine.key, 'PUT', `/api/apis/${id}`, classic(id, { v2: myApi }));
    expect(own.status, own.text).toBe(200);
    expect((await stored(id)).body.definition.versions).toEqual({ v2: myApi });
  });

  it("POST /api/apis with the caller's own API as a version stores the link", async () => {
    const id = uid('classic-own');
    const r = await s.dash(mine.key, 'POST', '/api/apis', classic(id, { v2: myApi }));
    expect(r.status, r.text).toBe(200);
    expect((await stored(id)).body.definition.versions).toEqual({ v2: myApi });
  });

  it("PUT /api/apis/{apiID} of an OAS API: the classic form's versions neither store a foreign link nor drop the linked ones", async () => {
    const base = uid('oas-base');
    const child = uid('oas-child');
    expect((await s.dash(mine.key, 'POST', '/api/apis/oas', oas(base, mine.orgId))).status).toBe(200);
    expect((await s.dash(mine.key, 'POST', `/api/apis/oas?base_api_id=${base}&new_version_name=v2`, oas(child, mine.orgId))).status).toBe(200);
    const r = await s.dash(mine.key, 'PUT', `/api/apis/${base}`, classic(base, { v2: theirApi }));
    expect(r.status, r.text).toBe(200);
    expect((await stored(base)).body.definition.versions).toEqual({ v2: child });
  });
});

describe('a gateway write of either form stores the versions it is sent (trusted like the gateway)', () => {
  it('POST /gw/apis and POST /gw/apis/oas answer alike for an API of another organisation and for an unknown one', async () => {
    for (const target of [theirApi, 'no-such-api']) {
      const c = uid('gw-classic');
      const o = uid('gw-oas');
      const cl = await s.gw('POST', '/gw/apis', { ...classic(c, { v2: target }).api_definition, org_id: mine.orgId });
      const doc = await s.gw('POST', '/gw/apis/oas', oas(o, mine.orgId, [{ id: target, name: 'v2' }]));
      expect([cl.status, doc.status], `${cl.text} ${doc.text}`).toEqual([200, 200]);
      expect((await stored(c)).body.definition.versions).toEqual({ v2: target });
      expect((await stored(o)).body.definition.versions).toEqual({ v2: target });
    }
  });
});
