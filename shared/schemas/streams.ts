import * as z from 'zod';
import { gwApiGatewaySchema, oasDocumentSchema } from './api-oas';
import { obj } from './loose';

/** The media type of `PATCH /api/apis/streams/{apiID}` (contract §8). */
const STREAMS_MEDIA_TYPE = 'application/vnd.gw.streams.oas';
/**
 * Its structured-syntax form, which tools recognise as JSON: taken as well, so a generated client
 * can send it (anything else, application/json included, is 415).
 */
export const STREAMS_MEDIA_TYPES = [STREAMS_MEDIA_TYPE, `${STREAMS_MEDIA_TYPE}+json`] as const;

/** `x-gw-streaming`: `streams` is required; other members are kept. */
export const gwStreamingSchema = /* @__PURE__ */ (() => z.looseObject({ streams: obj }))();

/**
 * Body of the streams patch: an OpenAPI document that must carry both `x-gw-api-gateway` and
 * `x-gw-streaming.streams` (400 otherwise); unknown members are kept.
 */
export const streamsBodySchema = /* @__PURE__ */ (() =>
  oasDocumentSchema.extend({
    'x-gw-api-gateway': gwApiGatewaySchema,
    'x-gw-streaming': gwStreamingSchema,
  }))();
