import { createHandler } from '../../shared/http/create-handler';
import { systemRoutes as routes } from '../../shared/route-groups/system';
import { storageAnswers } from '../../shared/services/health';

/** GET /hello: 200 pass when storage answers, 503 fail when not. No credential. */
export const handler = createHandler(routes.hello, async () =>
  (await storageAnswers())
    ? { body: { status: 'pass', description: 'storage answers' } }
    : { status: 503, body: { status: 'fail', description: 'storage does not answer' } },
);
