/**
 * How every function is bundled (esbuild), in one place so that the stack, the benchmarks and
 * scripts/map-stack.ts (which rebuilds a deployed function byte for byte, with a source map
 * beside it, to map a stack trace from the logs back to the sources: README "Reading stack
 * traces") build the same files.
 *
 * Cold starts (README "Choices"): code that only some requests need is a separate chunk loaded
 * on first use (esbuild splitting): the Secrets Manager client of the functions that read a
 * secret, the SDK's optional credential providers. On Lambda the credentials are in the
 * environment, so the bundles replace the SDK's default chain by the environment provider alone
 * (infra/lambda-credentials.ts).
 */
import { OutputFormat, type BundlingOptions, type ICommandHooks } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { BuildOptions } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { ESBUILD_TARGET } from './runtime';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LAMBDA_CREDENTIALS = fileURLToPath(new URL('./lambda-credentials.ts', import.meta.url));

const BANNER = "import { createRequire } from 'module';const require = createRequire(import.meta.url);";

/**
 * NodejsFunction's own esbuild pass (one file, no splitting); the afterBundling hook of
 * functionBundling() then writes the deployed files over it with esbuildOptions().
 */
const FUNCTION_BUNDLING = {
  format: OutputFormat.ESM,
  minify: true,
  target: ESBUILD_TARGET,
  mainFields: ['module', 'main'],
  // The SDK goes into the bundle: the tested version, minified and tree-shaken (faster cold
  // starts than the runtime's full copy).
  bundleAwsSDK: true,
  // Some SDK dependencies still call require(); ESM bundles need it defined.
  banner: BANNER,
} as const satisfies BundlingOptions;

/**
 * The esbuild options of a deployed function (pass `entryPoints` and `outdir`): `index.mjs`, the
 * handler, plus `chunk-<hash>.mjs` files it imports, some only on first use. `nodeModules` stay
 * outside the bundle (copied beside it).
 */
export function esbuildOptions(nodeModules: readonly string[] = []): BuildOptions {
  return {
    bundle: true,
    platform: 'node',
    target: FUNCTION_BUNDLING.target,
    format: 'esm',
    minify: FUNCTION_BUNDLING.minify,
    mainFields: [...FUNCTION_BUNDLING.mainFields],
    banner: { js: BANNER },
    external: [...nodeModules],
    splitting: true,
    entryNames: 'index',
    chunkNames: 'chunk-[hash]',
    outExtension: { '.js': '.mjs' },
    alias: { '@aws-sdk/credential-provider-node': LAMBDA_CREDENTIALS },
  };
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * NodejsFunction bundling for one function: its single-file pass is replaced, in the
 * afterBundling hook, by infra/build-function.ts (esbuildOptions(), split into chunks), then
 * `extraCommands` (copying node modules beside it) run.
 */
export function functionBundling(
  entry: string,
  nodeModules: readonly string[] = [],
  extraCommands: (inputDir: string, outputDir: string) => string[] = () => [],
): BundlingOptions {
  const hooks: ICommandHooks = {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir, outputDir) => [
      `cd ${quote(ROOT)} && node --import tsx infra/build-function.ts ${[entry, outputDir, ...nodeModules].map(quote).join(' ')}`,
      ...extraCommands(inputDir, outputDir),
    ],
  };
  return { ...FUNCTION_BUNDLING, ...(nodeModules.length ? { externalModules: [...nodeModules] } : {}), commandHooks: hooks };
}
