import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { routeList } from '../../shared/routes';
import { startStage, type Stage } from '../support/stage';

let s: Stage;
beforeAll(async () => {
  s = await startStage();
});
afterAll(() => s.close());

it('/openapi.json is a valid OpenAPI 3.1 document listing every route of the table', async () => {
  const r = await s.call('GET', '/openapi.json');
  expect(r.status).toBe(200);
  expect(r.body.openapi).toBe('3.1.0');
  const result = await new Validator().validate(r.body);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
  for (const route of routeList) {
    const op = r.body.paths[route.path]?.[route.method.toLowerCase()];
    expect(op, `${route.method} ${route.path}`).toBeDefined();
    expect(op.operationId).toBe(route.name);
    expect(op['x-planned']).toBeUndefined();
  }
  // Bodies are named models: the operation references the component, which holds the rules.
  const create = r.body.paths['/admin/users'].post;
  expect(create.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/UserCreate' });
  expect(r.body.components.schemas.UserCreate.required).toEqual(['org_id', 'email_address']);
});
