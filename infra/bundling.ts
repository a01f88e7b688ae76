/**
 * How every function is bundled (esbuild), in one place so that the stack, the benchmarks and
 * scripts/map-stack.ts (which rebuilds a deployed function byte for byte, with a source map
 * beside it, to map a stack trace from the logs back to the sources: docs/operating/observability.md "Reading stack traces") build the same files.
 *
 * Cold starts (docs/developing/choices.md): code that only some requests need is a separate chunk loaded
 * on first use (esbuild splitting): the Secrets Manager client of the functions that read a
 * secret, the SDK's optional credential providers. On Lambda the credentials are in the
 * environment, so the bundles replace the SDK's default chain by the environment provider alone
 * (infra/lambda-credentials.ts). Tree-shaking keeps a function to its own route: a handler imports
 * its route alone, and the route groups and schemas declare pure values (docs/developing/layout.md),
 * so the routes and schemas its code does not reach are not in its bundle.
 */
import { AssetHashType, DockerImage, type ILocalBundling } from 'aws-cdk-lib';
import { Code } from 'aws-cdk-lib/aws-lambda';
import { type BuildOptions, buildSync, type Metafile } from 'esbuild';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compress, ENCODINGS } from '../shared/openapi/compressed';
import { openApiDocument } from '../shared/openapi/document';
import { copyNodeModules } from './node-modules';
import { ESBUILD_TARGET } from './runtime';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LAMBDA_CREDENTIALS = fileURLToPath(new URL('./lambda-credentials.ts', import.meta.url));

/**
 * The esbuild options of a deployed function (pass `entryPoints` and `outdir`): `index.mjs`, the
 * handler, plus `chunk-<hash>.mjs` files it imports, some only on first use. `nodeModules` stay
 * outside the bundle (copied beside it). The SDK goes into the bundle: the tested version,
 * minified and tree-shaken (faster cold starts than the runtime's full copy).
 */
export function esbuildOptions(nodeModules: readonly string[] = []): BuildOptions {
  return {
    // The document GET /openapi.json answers is a file beside the bundle (writeOpenApiBeside): fixed
    // per build, read on the first request, never parsed as code at start (shared/openapi/served.ts).
    define: { OPENAPI_FILE: JSON.stringify(`./${OPENAPI_FILE}`) },
    bundle: true,
    platform: 'node',
    target: ESBUILD_TARGET,
    format: 'esm',
    minify: true,
    mainFields: ['module', 'main'],
    // Some SDK dependencies still call require(); ESM bundles need it defined.
    banner: { js: "import { createRequire } from 'module';const require = createRequire(import.meta.url);" },
    external: [...nodeModules],
    splitting: true,
    entryNames: 'index',
    chunkNames: 'chunk-[hash]',
    outExtension: { '.js': '.mjs' },
    alias: { '@aws-sdk/credential-provider-node': LAMBDA_CREDENTIALS },
  };
}

/** The document's file name beside a bundle that serves it. */
const OPENAPI_FILE = 'openapi.json';
let documentText: string | undefined;
const builtDocument = (): string => (documentText ??= JSON.stringify(openApiDocument()));

/** Writes the OpenAPI document, plain and compressed, beside a bundle whose inputs include the module that serves it (metafile of its build). */
export function writeOpenApiBeside(outdir: string, metafile: Metafile | undefined): void {
  if (!Object.keys(metafile?.inputs ?? {}).some((f) => f.endsWith('shared/openapi/served.ts'))) return;
  writeFileSync(join(outdir, OPENAPI_FILE), builtDocument());
  for (const encoding of ENCODINGS) writeFileSync(join(outdir, `${OPENAPI_FILE}.${encoding}`), compress(builtDocument(), encoding));
}

/**
 * One function's build, run by CDK in the synth's own process: one esbuild pass per function, no
 * shell and no second Node process (NodejsFunction's single-file pass followed by a split build
 * took `cdk synth` of the dev stage 201 s on two cores; this takes 41 s, same bundles byte for byte).
 * `entry` and `nodeModules` are fields, not closed over: CDK reuses a bundle within a synth when
 * the JSON of its bundling options matches, so each function's must differ.
 */
class FunctionBuild implements ILocalBundling {
  constructor(
    readonly entry: string,
    readonly nodeModules: readonly string[],
  ) {}

  tryBundle(outputDir: string): boolean {
    const { metafile } = buildSync({
      ...esbuildOptions(this.nodeModules),
      entryPoints: [join(ROOT, this.entry)],
      outdir: outputDir,
      logLevel: 'warning',
      metafile: true,
    });
    writeOpenApiBeside(outputDir, metafile);
    copyNodeModules(ROOT, this.nodeModules, outputDir);
    return true;
  }
}

/**
 * A function's code (`handler: 'index.handler'`): the bundle of `entry` with `nodeModules`
 * copied beside it from the lockfile's node_modules. The asset is named by the hash of what was
 * built, so an unchanged bundle is not uploaded again.
 */
export function functionCode(entry: string, nodeModules: readonly string[] = []): Code {
  return Code.fromAsset(ROOT, {
    assetHashType: AssetHashType.OUTPUT,
    // Never pulled: the local build always succeeds or throws.
    bundling: { image: DockerImage.fromRegistry('local-build-only'), local: new FunctionBuild(entry, nodeModules) },
  });
}
