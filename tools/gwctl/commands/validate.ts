/** gwctl validate: the folder's files against the document's schemas and each other (offline). */
import { readFolder, type Problem } from '../folder';
import { connect, knownOf, readOrg } from '../state';
import { validateFolder } from '../validate';
import type { Io } from './io';

export const formatProblem = (p: Problem) => `${p.file}${p.path ? `: ${p.path}` : ''}: ${p.message}`;

/** `org`: references may also name the organisation's objects (read with the environment's credentials). */
export async function validate(dir: string, io: Io, org: boolean): Promise<number> {
  const { files, problems } = readFolder(dir);
  const known = org ? knownOf(await readOrg(await connect(io.env))) : undefined;
  const all = [...problems, ...validateFolder(dir, files, known)];
  for (const p of all) io.err(formatProblem(p));
  io.out(all.length ? `${all.length} problem${all.length === 1 ? '' : 's'} in ${dir}` : `${dir}: ${files.length} objects, valid`);
  return all.length ? 1 : 0;
}
