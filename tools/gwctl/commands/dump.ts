/** gwctl dump: the organisation's configuration into a folder. */
import { ADAPTERS } from '../kinds';
import { writeFolder } from '../folder';
import type { ConfigFile } from '../model';
import { connect, readOrg } from '../state';
import type { Io } from './io';

export async function dump(dir: string, io: Io): Promise<number> {
  const ctx = await connect(io.env);
  const state = await readOrg(ctx);
  const files: ConfigFile[] = [...state.values()].flat().map((l) => ({ path: ADAPTERS[l.object.kind].fileOf(l.object), object: l.object }));
  writeFolder(dir, files);
  io.out(
    `dumped ${files.length} objects to ${dir} (${[...state].map(([k, l]) => `${l.length} ${k}`).join(', ')}); keys are not configuration and are not dumped`,
  );
  return 0;
}
