import type { AddressInfo } from 'node:net';
import { awaitLocalCommits } from '../../infra/local/commit-wait';
import { createLocalServer } from '../../infra/local/server';
import { ddb } from '../../shared/store/client';
import { ADMIN_SECRET, GW_SECRET, useTestTable } from './table';

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface Stage {
  url: string;
  table: string;
  /** A raw request; `body` objects are sent as JSON, strings as they are. */
  call<T = any>(method: string, path: string, opts?: { headers?: Record<string, string>; body?: unknown }): Promise<Answer<T>>;
  admin<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer<T>>;
  gw<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer<T>>;
  dash<T = any>(key: string, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer<T>>;
  /** Creates an organisation and a dashboard user in it; answers the user's access key. */
  tenant(orgId?: string): Promise<{ orgId: string; key: string; userId: string }>;
  close(): Promise<void>;
}

let counter = 0;

/** The local stage's real HTTP server on a free port, over a fresh table. */
export async function startStage(): Promise<Stage> {
  const table = await useTestTable();
  // As npm start does (infra/local/main.ts): transactional writes answered once committed.
  awaitLocalCommits(ddb());
  const server = createLocalServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return stageAt(url, table, () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));
}

/** A client for any stage serving the test credentials at `url` (the source stage, the emulator). */
export function stageAt(url: string, table: string, close: () => Promise<void>): Stage {
  const call: Stage['call'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    let body: string | undefined;
    if (typeof opts.body === 'string') body = opts.body;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(url + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, headers: res.headers, body: parsed as any };
  };
  const stage: Stage = {
    url,
    table,
    call,
    admin: (method, path, body, headers = {}) => call(method, path, { body, headers: { 'admin-auth': ADMIN_SECRET, ...headers } }),
    gw: (method, path, body, headers = {}) => call(method, path, { body, headers: { 'x-gw-authorization': GW_SECRET, ...headers } }),
    dash: (key, method, path, body, headers = {}) => call(method, path, { body, headers: { authorization: `Bearer ${key}`, ...headers } }),
    async tenant(orgId = `org-${process.pid}-${++counter}-${Date.now().toString(36)}`) {
      const org = await stage.admin('POST', '/admin/organisations', { id: orgId, owner_name: orgId });
      if (org.status !== 200) throw new Error(`org create failed: ${JSON.stringify(org.body)}`);
      const user = await stage.admin('POST', '/admin/users', { org_id: orgId, email_address: `owner@${orgId}.example` });
      if (user.status !== 200) throw new Error(`user create failed: ${JSON.stringify(user.body)}`);
      return { orgId, key: user.body.Meta.access_key as string, userId: user.body.Meta.id as string };
    },
    close,
  };
  return stage;
}
