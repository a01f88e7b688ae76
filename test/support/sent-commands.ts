import { beforeAll } from 'vitest';
import { counterDb, ddb } from '../../shared/store/db/client';

export interface Sent {
  command: string;
  key: string;
}

/**
 * Records every command either client of the store sends while `recorded(run)` runs, with the
 * item it names. Call at the top of a test file: the recorder is added to the clients once.
 */
export function commandRecorder() {
  const sent: Sent[] = [];
  let recording = false;
  beforeAll(() => {
    for (const client of [ddb(), counterDb()]) {
      client.middlewareStack.add(
        (next, context) => async (args) => {
          if (recording) {
            const input = args.input as { Key?: { PK: string; SK: string } };
            sent.push({ command: context.commandName ?? '?', key: input.Key ? `${input.Key.PK}|${input.Key.SK}` : '' });
          }
          return next(args);
        },
        { step: 'initialize', name: 'checkWriteCounter', override: true },
      );
    }
  });
  return async function recorded<T>(run: () => Promise<T>): Promise<{ result: T; commands: Sent[] }> {
    sent.length = 0;
    recording = true;
    try {
      const result = await run();
      return { result, commands: [...sent] };
    } finally {
      recording = false;
    }
  };
}
