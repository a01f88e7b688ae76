/** A keep-alive HTTP client with as little overhead as Node allows, for latency samples. */
import { Agent, request } from 'node:http';

const agent = new Agent({ keepAlive: true, maxSockets: 256 });

export interface Answer {
  status: number;
  body: any;
  ms: number;
}

export function call(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<Answer> {
  const data = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const h: Record<string, string> = { ...headers };
  if (data !== undefined) {
    h['content-type'] ??= 'application/json';
    h['content-length'] = String(Buffer.byteLength(data));
  }
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const req = request({ agent, host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers: h }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          /* keep text */
        }
        resolve({ status: res.statusCode ?? 0, body: parsed, ms });
      });
    });
    req.on('error', reject);
    if (data !== undefined) req.write(data);
    req.end();
  });
}

/** Milliseconds an async function takes. */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}
