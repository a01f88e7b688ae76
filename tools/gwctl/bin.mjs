#!/usr/bin/env node
// gwctl's entry point (package.json "bin"): runs the TypeScript sources through tsx, so a fresh
// clone needs only `npm ci` before `npx gwctl --help`.
import { register } from 'tsx/esm/api';

register();
const { run } = await import('./main.ts');
process.exitCode = await run(process.argv.slice(2), {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
