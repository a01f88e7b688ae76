/**
 * How every function is bundled (NodejsFunction, esbuild), in one place so that
 * scripts/map-stack.ts can rebuild a deployed function byte for byte, with a source map beside
 * it, to map a stack trace from the logs back to the sources (README "Reading stack traces").
 */
import { OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { BuildOptions } from 'esbuild';
import { ESBUILD_TARGET } from './runtime';

export const FUNCTION_BUNDLING = {
  format: OutputFormat.ESM,
  minify: true,
  target: ESBUILD_TARGET,
  mainFields: ['module', 'main'],
  // The SDK goes into the bundle: the tested version, minified and tree-shaken (faster cold
  // starts than the runtime's full copy).
  bundleAwsSDK: true,
  // Some SDK dependencies still call require(); ESM bundles need it defined.
  banner: "import { createRequire } from 'module';const require = createRequire(import.meta.url);",
} as const satisfies BundlingOptions;

/** The esbuild options NodejsFunction passes for FUNCTION_BUNDLING (and a route's nodeModules). */
export function esbuildOptions(nodeModules: readonly string[] = []): BuildOptions {
  return {
    bundle: true,
    platform: 'node',
    target: FUNCTION_BUNDLING.target,
    format: 'esm',
    minify: FUNCTION_BUNDLING.minify,
    mainFields: [...FUNCTION_BUNDLING.mainFields],
    banner: { js: FUNCTION_BUNDLING.banner },
    external: [...nodeModules],
  };
}
