/** The benchmarks' HTTP calls go through the suite's one client (test/support/client.ts), which times each answer. */
import { request, type Answer } from '../../test/support/client';

export { timed } from '../../test/support/client';

export function call(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<Answer> {
  return request(base, method, path, { headers, body });
}
