import type { hooksRoutes } from '../../route-groups/hooks';
import type { GroupDocs } from '../route-doc';

const target =
  'target_path must not name localhost (or a name under it), metadata.google.internal, or a literal address outside public ' +
  'unicast (loopback, private, link-local, unique-local, carrier-grade NAT, multicast, reserved; IPv4 in any spelling).';
/** What JSON Schema can say of target_path: an absolute http(s) URL with a host. */
const bodyRule = { properties: { target_path: { pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^/?#\\s]+' } } };
const headers = 'header_map: at most 50 headers and 16,384 characters of names and values together; names unique ignoring case.';

export const hooksDocs: GroupDocs<typeof hooksRoutes> = {
  hooksCreate: { description: `${target} ${headers}`, success: 'Webhook created; Meta is its id', etag: true, bodyRule },
  hooksList: { description: "Webhooks of the caller's organisation in creation order, paged (contract §5).", success: 'A page of webhooks' },
  hooksGet: { description: "A webhook of the caller's organisation.", success: 'The webhook', etag: true, answers: { 404: 'No such webhook' } },
  hooksUpdate: {
    description: `Replaces the whole webhook: omitted members are emptied. ${target} ${headers}`,
    success: 'Webhook updated; Meta is its id',
    etag: true,
    bodyRule,
    answers: { 404: 'No such webhook' },
  },
  hooksDelete: { description: "A webhook of the caller's organisation.", success: 'Webhook deleted; Meta is its id', answers: { 404: 'No such webhook' } },
};
