/**
 * The credential chain of the deployed bundles: on Lambda the function's role credentials are
 * always in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), so
 * the SDK's default chain (SSO, INI files, process, web identity, STS, instance metadata) is
 * never reached. infra/bundling.ts aliases `@aws-sdk/credential-provider-node` to this module in
 * the bundles only; the local stage and the tests run the sources with the SDK's full chain.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';

/** Same signature as the SDK's defaultProvider: the environment's credentials, nothing else. */
export const defaultProvider = (init: Parameters<typeof fromEnv>[0] = {}) => fromEnv(init);
