/**
 * Lambda's Node for the emulator's workers: the major of the template's runtime, never the tools'
 * Node by accident. `npm ci` installs it into infra/local/lambda-node (its own folder, so its `node`
 * bin never shadows the tools' Node in npm scripts); LAMBDA_NODE may name another binary.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const INSTALL_DIR = fileURLToPath(new URL('../lambda-node', import.meta.url));

export interface LambdaNode {
  path: string;
  version: string;
}

function runtimeMajor(runtime: string): number {
  const m = /^nodejs(\d+)\.x$/.exec(runtime);
  if (!m) throw new Error(`runtime ${runtime} is not a Node.js runtime; the emulator runs only nodejs<major>.x functions`);
  return Number(m[1]);
}

const versionOf = (bin: string) => spawnSync(bin, ['-v'], { encoding: 'utf8' }).stdout?.trim() ?? '';

/** The first of LAMBDA_NODE, the installed package, and this process's Node whose major is the runtime's. */
export function lambdaNode(runtime: string, env: NodeJS.ProcessEnv = process.env): LambdaNode {
  const major = runtimeMajor(runtime);
  const installed = join(INSTALL_DIR, 'node_modules', `node-linux-${process.arch}`, 'bin', 'node');
  const tried: string[] = [];
  for (const path of [env.LAMBDA_NODE, installed, process.execPath]) {
    if (!path || !existsSync(path)) continue;
    const version = versionOf(path);
    if (version.startsWith(`v${major}.`)) return { path, version };
    tried.push(`${path} is ${version || 'not runnable'}`);
  }
  throw new Error(
    `${runtime} needs Node ${major} for the emulator's workers and none was found (${tried.join('; ') || 'nothing installed'}). ` +
      `Run \`npm ci\` (it installs it into infra/local/lambda-node on Linux x64/arm64), or set LAMBDA_NODE to a Node ${major} binary.`,
  );
}
