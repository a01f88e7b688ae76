import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { hello as route } from '../../shared/route-groups/system';
import { storageAnswers } from '../../shared/services/health';

/** GET /hello: whether storage answers. No credential. */
export const handler = createHandler(route, async () =>
  (await storageAnswers())
    ? reply.ok({ status: 'pass', description: 'storage answers' })
    : reply.ok({ status: 'fail', description: 'storage does not answer' }, { status: 503 }),
);
