import { fromEnv } from '@aws-sdk/credential-provider-env';
export const defaultProvider = (init?: Parameters<typeof fromEnv>[0]) => fromEnv(init);
