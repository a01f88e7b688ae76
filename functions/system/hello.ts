import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { systemRoutes as routes } from '../../shared/route-groups/system';
import { storageAnswers } from '../../shared/services/health';

/** GET /hello: whether storage answers. No credential. */
export const handler = createHandler(routes.hello, async () =>
  (await storageAnswers())
    ? reply.ok({ status: 'pass', description: 'storage answers' })
    : reply.ok({ status: 'fail', description: 'storage does not answer' }, { status: 503 }),
);
