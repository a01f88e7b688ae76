/**
 * The named models of the OpenAPI document: each Zod schema registered here once becomes
 * `#/components/schemas/<Name>` and every use of that same schema in any route is a `$ref` to it.
 * Only the document generator loads this file, so names and the error models cost no function
 * any bundle size.
 */
import * as z from 'zod';
import { activityRowSchema, analyticsIngestResultSchema, analyticsIngestSchema, analyticsRecordSchema, keyActivitySchema } from '../schemas/analytics';
import { classicApiSchema } from '../schemas/api-classic';
import { gwApiGatewaySchema, oasDocumentSchema, oasWriteDocumentSchema } from '../schemas/api-oas';
import { apiListingEntrySchema, apiListSchema } from '../schemas/apis';
import { assetInputSchema, assetListSchema, assetSchema } from '../schemas/assets';
import { auditEntrySchema, auditListSchema } from '../schemas/audit';
import { gatewayWriteSchema, keyWriteSchema, okIdPairSchema, okIdSchema, okNullSchema } from '../schemas/common';
import { hookInputSchema, hookListSchema, hookSchema } from '../schemas/hooks';
import { importUrlBodySchema } from '../schemas/import';
import {
  accessDefinitionSchema,
  accessRightsSchema,
  apiLimitSchema,
  keyAdminSchema,
  keyDashboardSchema,
  keyGatewaySchema,
  keyResultSchema,
  keySessionSchema,
  sessionCheckResultSchema,
  sessionCheckSchema,
} from '../schemas/keys';
import { oauthClientListSchema, oauthClientSchema, oauthCreatedSchema, oauthCreateSchema, oauthUpdateSchema } from '../schemas/oauth';
import { organisationInputSchema } from '../schemas/organisations';
import { exportedPolicySchema, partitionsSchema, policiesImportedSchema, policyImportSchema, policySchema } from '../schemas/policies';
import { smoothingSchema } from '../schemas/smoothing';
import { gwStreamingSchema, streamsBodySchema } from '../schemas/streams';
import { userPermissionsSchema } from '../schemas/permissions';
import { userCreateSchema, userIssuedSchema, userListSchema, userSchema, userUpdatedSchema, userUpdateSchema } from '../schemas/users';
import { healthSchema, openApiDescriptionSchema } from '../route-groups/system';
import { LIMITS } from '../limits';
import { STORABLE_MAX } from '../schemas/storable';

/** One problem of a refused request: where (`body.method`, `query.p`, `params.apiID`) and what. */
const validationIssueSchema = z.object({ path: z.string(), message: z.string() });

/** Dashboard and admin error envelope (contract §3). */
const dashboardErrorSchema = z.object({
  Status: z.literal('Error'),
  Message: z.string(),
  Meta: z.object({ errors: z.array(validationIssueSchema) }).nullable(),
});

/** Gateway error envelope (contract §3): `errors` only for validation. */
const gatewayErrorSchema = z.object({ status: z.literal('error'), message: z.string(), errors: z.array(validationIssueSchema).optional() });

/** A refusal of the data-plane check (contract §10): the gateway error envelope with the reason. */
const checkRefusalSchema = gatewayErrorSchema.extend({
  allowed: z.literal(false),
  // NoKey, UnknownApi and AmbiguousPath: only the external authorization (no key where the gateway
  // said, no API at the host and path, a path upstreams read in different ways).
  reason: z.enum([
    'UnknownKey',
    'KeyInactive',
    'KeyExpired',
    'OrgSuspended',
    'AccessDenied',
    'QuotaExceeded',
    'RateLimitExceeded',
    'NoKey',
    'UnknownApi',
    'AmbiguousPath',
  ]),
});

/** Name -> schema. Order is the order of the document's components. */
export const NAMED_SCHEMAS: ReadonlyArray<readonly [string, z.ZodType]> = [
  // Envelopes
  ['StatusMetaId', okIdSchema],
  ['StatusMetaIdWithId', okIdPairSchema],
  ['StatusOk', okNullSchema],
  ['GatewayWriteResult', gatewayWriteSchema],
  ['KeyWriteResult', keyWriteSchema],
  ['ValidationIssue', validationIssueSchema],
  ['DashboardError', dashboardErrorSchema],
  ['GatewayError', gatewayErrorSchema],
  ['CheckRefusal', checkRefusalSchema],
  // System
  ['Health', healthSchema],
  ['OpenApiDescription', openApiDescriptionSchema],
  // Organisations and users
  ['OrganisationCreate', organisationInputSchema],
  ['UserPermissions', userPermissionsSchema],
  ['User', userSchema],
  ['UserList', userListSchema],
  ['UserCreate', userCreateSchema],
  ['UserUpdate', userUpdateSchema],
  ['UserIssued', userIssuedSchema],
  ['UserUpdated', userUpdatedSchema],
  // Keys, policies and the check
  ['Smoothing', smoothingSchema],
  ['ApiLimit', apiLimitSchema],
  ['AccessDefinition', accessDefinitionSchema],
  ['AccessRights', accessRightsSchema],
  ['Key', keySessionSchema],
  ['KeyGateway', keyGatewaySchema],
  ['KeyDashboard', keyDashboardSchema],
  ['KeyAdmin', keyAdminSchema],
  ['KeyResult', keyResultSchema],
  ['SessionCheck', sessionCheckSchema],
  ['SessionCheckAllowed', sessionCheckResultSchema],
  ['Partitions', partitionsSchema],
  ['Policy', policySchema],
  ['ExportedPolicy', exportedPolicySchema],
  ['PolicyImport', policyImportSchema],
  ['PoliciesImported', policiesImportedSchema],
  // API definitions
  ['ClassicApi', classicApiSchema],
  ['GwApiGateway', gwApiGatewaySchema],
  ['OasDocument', oasDocumentSchema],
  ['OasWriteDocument', oasWriteDocumentSchema],
  ['ApiListingEntry', apiListingEntrySchema],
  ['ApiList', apiListSchema],
  ['ImportUrl', importUrlBodySchema],
  ['GwStreaming', gwStreamingSchema],
  ['StreamsDocument', streamsBodySchema],
  // Templates, webhooks, OAuth clients, analytics
  ['Asset', assetSchema],
  ['AssetInput', assetInputSchema],
  ['AssetList', assetListSchema],
  ['Webhook', hookSchema],
  ['WebhookInput', hookInputSchema],
  ['WebhookList', hookListSchema],
  ['OAuthClient', oauthClientSchema],
  ['OAuthClientCreated', oauthCreatedSchema],
  ['OAuthClientCreate', oauthCreateSchema],
  ['OAuthClientUpdate', oauthUpdateSchema],
  ['OAuthClientList', oauthClientListSchema],
  ['AnalyticsRecord', analyticsRecordSchema],
  ['AnalyticsBatch', analyticsIngestSchema],
  ['AnalyticsIngestResult', analyticsIngestResultSchema],
  ['KeyActivityRow', activityRowSchema],
  ['KeyActivity', keyActivitySchema],
  // The audit trail
  ['AuditEntry', auditEntrySchema],
  ['AuditLog', auditListSchema],
];

type Json = Record<string, unknown>;
/** A named Zod model, on the request side (resolved by the generator). */
const model = (name: string): Json => ({ $ref: `input:${name}` });

/**
 * Models written in JSON Schema directly (those no operation or model references are left out): what the body parser refuses in every object (contract
 * §3, docs/reference/limits.md), and the document forms whose rule is a choice between schemas.
 */
export const JSON_SCHEMAS: Record<string, Json> = {
  SafePropertyName: {
    type: 'string',
    not: { const: '__proto__' },
    description: 'Any member name but __proto__, which every body refuses (as it does a constructor member holding prototype).',
  },
  StoredMemberName: {
    type: 'string',
    minLength: 1,
    maxLength: LIMITS.storedNameChars,
    not: { const: '__proto__' },
    description: `A member name in a body stored as attributes: 1 to ${LIMITS.storedNameChars} characters (storage holds no other), not __proto__.`,
  },
  StoredNumber: {
    type: 'number',
    minimum: -STORABLE_MAX,
    maximum: STORABLE_MAX,
    not: { $ref: '#/components/schemas/TinyNumber' },
    description: 'A number storage holds: 0, or a magnitude from 1e-130 to 2^53−1 (contract §11).',
  },
  UnstorableValue: {
    description:
      'A value storage cannot hold as attributes: a body stored as attributes is never one (400 naming the member). It nests no ' +
      `deeper than the body's x-stored-depth levels either (${LIMITS.storedDepth} for the object stored, which is the first).`,
    not: { $ref: '#/components/schemas/StoredValue' },
  },
  StoredValue: {
    description: 'A JSON value storage holds as attributes (as far as JSON Schema can say): its numbers are StoredNumbers, its member names StoredMemberNames.',
    anyOf: [
      { type: ['string', 'boolean', 'null'] },
      { $ref: '#/components/schemas/StoredNumber' },
      { type: 'array', items: { $ref: '#/components/schemas/StoredValue' } },
      {
        type: 'object',
        propertyNames: { $ref: '#/components/schemas/StoredMemberName' },
        additionalProperties: { $ref: '#/components/schemas/StoredValue' },
      },
    ],
  },
  TinyNumber: {
    type: 'number',
    exclusiveMinimum: -1e-130,
    exclusiveMaximum: 1e-130,
    not: { const: 0 },
    description: 'A number storage cannot hold: not zero, but smaller in magnitude than 1e-130. Stored numbers are never one (contract §11).',
  },
  OasWriteBody: {
    description:
      'A whole OpenAPI 3.x document that carries x-gw-api-gateway, or the bare x-gw-api-gateway object (no openapi, paths or ' +
      'x-gw-api-gateway member, and at least one of info, server, upstream, middleware), from which a minimal document is built.',
    anyOf: [
      model('OasWriteDocument'),
      {
        allOf: [
          model('GwApiGateway'),
          { not: { anyOf: [{ required: ['openapi'] }, { required: ['paths'] }, { required: ['x-gw-api-gateway'] }] } },
          { anyOf: [{ required: ['info'] }, { required: ['server'] }, { required: ['upstream'] }, { required: ['middleware'] }] },
        ],
      },
    ],
  },
  ImportDocument: {
    description:
      "An OpenAPI 3.0 or 3.1 document without x-gw-api-gateway, checked against the OpenAPI schema of its version (400 with the validator's messages).",
    allOf: [model('OasDocument'), { not: { required: ['x-gw-api-gateway'] } }],
  },
};
