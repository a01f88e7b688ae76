/**
 * What a handler may take and answer is checked when it compiles (shared/http/create-handler.ts,
 * shared/http/envelopes.ts): `org` exists only on dashboard routes, an answer is made only by
 * `reply`, and it carries the ETag exactly when the route's entry declares it. A small handler
 * file is compiled with the project's settings; each line marked `// refused` must be a type
 * error, and no other line.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, expect, it } from 'vitest';

const ROOT = resolve('.');
const fixture = join(ROOT, 'test', 'unit', `.handler-types-${process.pid}.ts`);
afterAll(() => rmSync(fixture, { force: true }));

const SOURCE = `
import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { hooksRoutes } from '../../shared/route-groups/hooks';
import { keysRoutes } from '../../shared/route-groups/keys';

createHandler(hooksRoutes.hooksList, async ({ org, query }) => reply.ok({ org, query }));
createHandler(hooksRoutes.hooksGet, async ({ org, params }) => reply.ok({ org, params }, { etag: 3 }));
createHandler(hooksRoutes.hooksDelete, async ({ params }) => reply.status('Webhook deleted', params.hookID));
createHandler(keysRoutes.keysDelete, async ({ params }) => reply.gateway('deleted', params.keyRef));
createHandler(keysRoutes.keysGet, async ({ org }) => reply.ok(org, { etag: 1 })); // refused: no org off the dashboard
createHandler(hooksRoutes.hooksGet, async ({ params }) => reply.ok(params)); // refused: the entry declares ETag
createHandler(hooksRoutes.hooksDelete, async () => reply.status('Webhook deleted', null, { etag: 2 })); // refused: no ETag declared
createHandler(hooksRoutes.hooksList, async () => ({ body: [] })); // refused: only reply makes an answer
`;

it('refuses org off dashboard routes, an ETag the entry does not declare (or its lack), and answers not made by reply', () => {
  writeFileSync(fixture, SOURCE);
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
  // Without Node's ambient types (half the time): the handler types need none, and only this file's errors count.
  const program = ts.createProgram([fixture], { ...config.options, noEmit: true, types: [] });
  const source = program.getSourceFile(fixture)!;
  const errorLines = new Set(ts.getPreEmitDiagnostics(program, source).map((d) => source.getLineAndCharacterOfPosition(d.start ?? 0).line));
  const lines = SOURCE.split('\n');
  const refused = new Set(lines.flatMap((l, i) => (l.includes('// refused') ? [i] : [])));
  expect(refused.size).toBe(4);
  expect([...errorLines].sort().map((i) => lines[i])).toEqual([...refused].sort().map((i) => lines[i]));
}, 60_000);
