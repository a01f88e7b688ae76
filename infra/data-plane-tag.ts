/**
 * The tag that marks the data-plane HTTP API (-c dataPlane=on, infra/constructs/data-plane.ts),
 * which the emulator finds it by (infra/local/emulator/template.ts) without loading the CDK.
 */
export const DATA_PLANE_TAG = { key: 'gw:role', value: 'data-plane' } as const;
