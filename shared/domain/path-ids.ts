import { BadRequest } from '../errors';

/**
 * An update whose body may repeat the id of the path (an API's `info.id`, a policy's `id`, an
 * OAuth client's `client_id` and `api_id`): a body that names another object is 400 and changes
 * nothing; one that leaves it out (absent, null or '') means the path's object. `what` names the
 * object in the message, `path` the body member in the error's details.
 */
export function assertBodyIdIsPathId(what: string, pathId: string, bodyId: unknown, path: string): void {
  if (bodyId === undefined || bodyId === null || bodyId === '' || bodyId === pathId) return;
  throw new BadRequest(`The body names ${what} ${String(bodyId)} but the path names ${pathId}`, [{ path, message: `must equal the ${what} id of the path` }]);
}
