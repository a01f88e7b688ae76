/**
 * Puts the environment back as `found` had it, in place. Replacing `process.env` with a copy
 * (`process.env = saved`) would cut it off from the real environment: Node's own readers, like
 * os.tmpdir(), read the real one, and would no longer see what later tests set.
 */
export function putBackEnvironment(found: NodeJS.ProcessEnv): void {
  for (const name of Object.keys(process.env)) if (!(name in found)) delete process.env[name];
  Object.assign(process.env, found);
}
