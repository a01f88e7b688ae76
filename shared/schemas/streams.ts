import * as z from 'zod';
import { gwApiGatewaySchema, oasDocumentSchema } from './api-oas';
import { obj } from './loose';

/** The one media type `PATCH /api/apis/streams/{apiID}` takes (anything else is 415). */
export const STREAMS_MEDIA_TYPE = 'application/vnd.gw.streams.oas';

/** `x-gw-streaming`: `streams` is required; other members are kept. */
export const gwStreamingSchema = z.looseObject({ streams: obj });

/**
 * Body of the streams patch: an OpenAPI document that must carry both `x-gw-api-gateway` and
 * `x-gw-streaming.streams` (400 otherwise); unknown members are kept.
 */
export const streamsBodySchema = oasDocumentSchema.extend({
  'x-gw-api-gateway': gwApiGatewaySchema,
  'x-gw-streaming': gwStreamingSchema,
});
export type StreamsBody = z.infer<typeof streamsBodySchema>;

export { importFlagsQuerySchema as streamsQuerySchema } from './import';
