/** What a command may touch besides the folder: the environment and two output streams. */
export interface Io {
  env: NodeJS.ProcessEnv;
  out(line: string): void;
  err(line: string): void;
}
