/**
 * A stand-in for the service in the simulated DOM: answers the console's fetches from handlers
 * keyed by "METHOD /path", and keeps what was asked. Installed before the client module loads
 * (openapi-fetch takes `fetch` when the client is made).
 */
export interface Asked {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: string;
}
type Handler = (asked: Asked) => { status?: number; body?: unknown; headers?: Record<string, string> };

export const asked: Asked[] = [];
const handlers = new Map<string, Handler>();

export function answer(route: string, handler: Handler | { status?: number; body?: unknown; headers?: Record<string, string> }): void {
  handlers.set(route, typeof handler === 'function' ? handler : () => handler);
}

export function resetService(): void {
  asked.length = 0;
  handlers.clear();
}

export async function fakeFetch(input: Request | string, init?: RequestInit): Promise<Response> {
  const request = input instanceof Request ? input : new Request(input, init);
  const url = new URL(request.url);
  const a: Asked = { method: request.method, path: url.pathname, query: url.searchParams, headers: request.headers, body: await request.text() };
  asked.push(a);
  const handler = handlers.get(`${a.method} ${a.path}`);
  if (!handler)
    return new Response(JSON.stringify({ Status: 'Error', Message: 'Not Found', Meta: null }), {
      status: 404,
      headers: { 'content-type': 'application/json' },
    });
  const r = handler(a);
  return new Response(r.body === undefined ? null : JSON.stringify(r.body), {
    status: r.status ?? 200,
    headers: { 'content-type': 'application/json', ...r.headers },
  });
}
