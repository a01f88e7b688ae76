/**
 * Middleware: Idempotency-Key on a creating POST (contract §3). A retry with the same key and
 * request answers the first reply again (Idempotent-Replayed: true) and runs nothing; the same
 * key with another request is 422; one still running is 409. The reply is kept when the request
 * succeeds; a request that fails releases its key, as it created nothing. When keeping the reply
 * fails, the request still answers its success (what it created stays) and the record is marked
 * done without a reply, so a retry is a 409 saying the request already succeeded, never a rerun.
 * A secret the answer shows once (the route's `secrets`) is withheld from the kept reply: a replay
 * answers the same envelope with those members replaced and says which (Idempotent-Secrets-Withheld),
 * so neither a replay nor the table ever yields the secret again, and one rotated since cannot come back.
 */
import { withholdSecrets } from '../../domain/idempotent-reply';
import { BadRequest, Conflict, Unprocessable } from '../../errors';
import type { RouteSpec } from '../../route-def';
import { claimIdempotencyKey, completeIdempotencyKey, completeIdempotencyKeyWithoutReply, releaseIdempotencyKey } from '../../services/idempotency';
import { errorField, logger } from '../../observability/logger';
import type { HttpMiddleware } from './state';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

export const idempotency = (route: RouteSpec): HttpMiddleware => ({
  name: 'idempotency',
  before: async (request) => {
    const key = request.event.headers?.['idempotency-key'];
    if (!route.idempotent || key === undefined) return undefined;
    if (!IDEMPOTENCY_KEY.test(key)) throw new BadRequest('Idempotency-Key must be 1-255 visible ASCII characters');
    const p = request.internal.principal!;
    const owner = p.group === 'dashboard' ? p.orgId : p.group === 'developer' ? `${p.orgId}/${p.developer.id}` : p.group;
    const scope = `${route.method} ${route.path}#${owner}`;
    const e = request.event;
    const claim = await claimIdempotencyKey(scope, key, [e.rawPath, e.rawQueryString ?? '', request.internal.parts?.rawBody ?? '']);
    if (claim.kind === 'mismatch') throw new Unprocessable('Idempotency-Key was already used with another request body');
    if (claim.kind === 'in-progress') throw new Conflict('A request with this Idempotency-Key is still in progress');
    if (claim.kind === 'not-replayable') {
      throw new Conflict(
        'A request with this Idempotency-Key already succeeded, but its answer could not be kept to replay; read or list the object it created',
      );
    }
    if (claim.kind === 'replay') {
      return { ...claim.response, headers: { ...claim.response.headers, 'Idempotent-Replayed': 'true' } };
    }
    request.internal.idempotency = { scope, key };
    return undefined;
  },
  after: async (request) => {
    const idem = request.internal.idempotency;
    if (idem && request.response) {
      const { statusCode, headers, body } = request.response;
      const secrets = route.secrets ?? [];
      const kept = secrets.length
        ? { statusCode, headers: { ...headers, 'Idempotent-Secrets-Withheld': secrets.join(', ') }, body: withholdSecrets(body, secrets) }
        : { statusCode, headers, body };
      try {
        await completeIdempotencyKey(idem.scope, idem.key, kept);
      } catch (err) {
        // The request's writes are done: answering an error (and releasing the key) would invite a
        // retry that runs it again. Its answer stands; a retry learns that it succeeded.
        logger.error('idempotent reply not kept', { scope: idem.scope, error: errorField(err) });
        await completeIdempotencyKeyWithoutReply(idem.scope, idem.key).catch((e: unknown) =>
          logger.error('idempotency record left pending', { scope: idem.scope, error: errorField(e) }),
        );
      }
    }
  },
  onError: async (request) => {
    const idem = request.internal.idempotency;
    if (idem) await releaseIdempotencyKey(idem.scope, idem.key).catch(() => undefined);
  },
});
