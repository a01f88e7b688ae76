/**
 * Lambda's Node: the one major that the template's runtime, the esbuild target of the bundles and
 * the emulator's workers share (docs/operating/emulator.md). nodejs24.x is the newest LTS
 * runtime this aws-cdk-lib offers; Lambda supports it well past Node 22's end in April 2027.
 * test/infra/stack.test.ts fails when the three disagree.
 */
export const LAMBDA_NODE_MAJOR = 24;
export const LAMBDA_RUNTIME = `nodejs${LAMBDA_NODE_MAJOR}.x`;
export const ESBUILD_TARGET = `node${LAMBDA_NODE_MAJOR}`;
