/**
 * A developer session of an organisation's portal (docs/using/developer-portal.md), for the suites
 * that need each group's valid credential: the portal is turned on (open sign-up) with the
 * organisation's dashboard key, a developer signs up and in.
 */
import type { Stage } from './stage';

export async function developerSession(stage: Stage, orgId: string, dashKey: string): Promise<string> {
  const on = await stage.dash(dashKey, 'PUT', '/api/portal/settings', { enabled: true, sign_up: 'open' });
  if (on.status !== 200) throw new Error(`portal settings: ${on.status} ${on.text}`);
  const developer = { email_address: `dev@${orgId}.example`.toLowerCase(), password: 'a developer password' };
  await stage.call('POST', `/portal/${orgId}/developers`, { body: developer });
  const session = await stage.call('POST', `/portal/${orgId}/sessions`, { body: developer });
  if (session.status !== 200) throw new Error(`developer sign-in: ${session.status} ${session.text}`);
  return session.body.Meta.token as string;
}
