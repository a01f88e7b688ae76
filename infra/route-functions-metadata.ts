/**
 * The metadata key on a nested stack's resource that marks it as holding route functions
 * (infra/constructs/route-functions.ts): the emulator merges those into the stage it serves
 * (infra/local/emulator/nested.ts). Its own file, so the emulator loads no CDK to read it.
 */
export const ROUTE_FUNCTIONS_METADATA = 'gw:route-functions';
