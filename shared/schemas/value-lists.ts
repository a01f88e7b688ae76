/**
 * Values the stores and services read as well as the schemas. They live apart from the schema
 * modules because importing a value from one of those builds every schema in it at a cold start
 * (the asset schema holds the whole OAS extension, the portal's every portal body, billing's the
 * usage answers, which the check built through its refusal tallies).
 */

/** The one asset kind; anything else is 422 (shared/services/assets.ts). */
export const ASSET_KIND = 'oas-template';

/** A key request's states, each with its own list (GSI1). */
export const KEY_REQUEST_STATES = ['pending', 'approved', 'refused', 'revoked'] as const;

/** Every refusal the usage figures count, by reason: the check's reasons plus the organisation's own quota. */
export const BILLED_REFUSALS = ['KeyInactive', 'KeyExpired', 'OrgSuspended', 'AccessDenied', 'QuotaExceeded', 'RateLimitExceeded', 'OrgQuotaExceeded'] as const;
