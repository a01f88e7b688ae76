/**
 * The address a request came from, for the decisions that count by it (the portal's sign-in
 * attempts per source). Each value comes from a party allowed to set it:
 * - a gateway serving an organisation's portal on its domain (gwctl's nginx file) names its viewer
 *   in X-Gw-Viewer-Address, vouched for by the gateway credential beside it;
 * - CloudFront names the viewer in X-Gw-Edge-Viewer (a viewer-request function writes it over
 *   whatever the client sent), believed only with the edge on (`-c edge=on`), where the edge's
 *   proof (origin-verify.ts) has already shown the request passed CloudFront;
 * - otherwise API Gateway's source address, the client's own when nothing stands in front.
 * Anything else a client sends in these headers is ignored.
 */
import { isIP } from 'node:net';
import { config } from '../config';
import { secretAccepted } from '../secrets';

const VIEWER_HEADER = 'X-Gw-Viewer-Address';
export const EDGE_VIEWER_HEADER = 'X-Gw-Edge-Viewer';

type Headers = Record<string, string | undefined>;

/** The viewer's address (payload 2.0 header names arrive lower-cased). */
export async function viewerAddressOf(headers: Headers, sourceIp: string): Promise<string> {
  const vouched = headers[VIEWER_HEADER.toLowerCase()]?.trim();
  if (vouched && isIP(vouched) && headers['x-gw-authorization'] !== undefined && (await secretAccepted('gw', headers['x-gw-authorization']))) return vouched;
  const edge = headers[EDGE_VIEWER_HEADER.toLowerCase()]?.trim();
  if (edge && isIP(edge) && config().originVerify) return edge;
  return sourceIp;
}
