/** gwctl dump: the organisation's configuration into a folder, each credential as an environment reference. */
import { withDumpReferences } from '../credentials';
import { ADAPTERS } from '../kinds';
import { writeFolder } from '../folder';
import type { ConfigFile } from '../model';
import { envRefsOf } from '../refs';
import { connect, readOrg } from '../state';
import type { Io } from './io';

export async function dump(dir: string, io: Io): Promise<number> {
  const ctx = await connect(io.env);
  const state = await readOrg(ctx);
  const files: ConfigFile[] = [...state.values()]
    .flat()
    .map((l) => ({ path: ADAPTERS[l.object.kind].fileOf(l.object), object: withDumpReferences(l.object, l.key) }));
  writeFolder(dir, files);
  io.out(
    `dumped ${files.length} objects to ${dir} (${[...state].map(([k, l]) => `${l.length} ${k}`).join(', ')}); keys are not configuration and are not dumped`,
  );
  const names = [...new Set(files.flatMap((f) => envRefsOf(f.object as never).map((r) => r.name)))].sort();
  if (names.length)
    io.out(`credentials are written as environment references; diff and sync need these set (gwctl.yaml lists where each is used): ${names.join(', ')}`);
  return 0;
}
