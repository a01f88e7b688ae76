import { beforeAll } from 'vitest';
import { counterDb, ddb } from '../../shared/store/db/client';

export interface Sent {
  command: string;
  key: string;
}

/**
 * A read command with the capacity it consumed, as DynamoDB (Local too) reports it: what it read
 * of stored items, whole items even when only keys were asked for (eventually consistent: a unit
 * per 8 KB). Asked for on every read while recording.
 */
export interface Read {
  command: string;
  units: number;
}

const READS = new Set(['GetItemCommand', 'BatchGetItemCommand', 'QueryCommand']);

/** Capacity units of a command's answer (one object, or one per table). */
function unitsOf(consumed: unknown): number {
  const list = Array.isArray(consumed) ? consumed : consumed ? [consumed] : [];
  return list.reduce((n: number, c: { CapacityUnits?: number }) => n + (c.CapacityUnits ?? 0), 0);
}

/**
 * Records every command either client of the store sends while `recorded(run)` runs, with the
 * item it names, every read with the capacity it consumed, and the attributes each UpdateItem
 * answered. Call at the top of a test file: the recorder is added to the clients once.
 */
export function commandRecorder() {
  const sent: Sent[] = [];
  const reads: Read[] = [];
  /** Per UpdateItem, the names of the attributes its answer carried (what its ReturnValues asked for), sorted. */
  const updates: string[][] = [];
  let recording = false;
  beforeAll(() => {
    for (const client of [ddb(), counterDb()]) {
      client.middlewareStack.add(
        (next, context) => async (args) => {
          if (!recording) return next(args);
          const command = context.commandName ?? '?';
          const input = args.input as { Key?: { PK: string; SK: string }; ReturnConsumedCapacity?: string };
          if (READS.has(command)) input.ReturnConsumedCapacity = 'TOTAL';
          sent.push({ command, key: input.Key ? `${input.Key.PK}|${input.Key.SK}` : '' });
          const result = await next(args);
          if (READS.has(command)) reads.push({ command, units: unitsOf((result.output as { ConsumedCapacity?: unknown }).ConsumedCapacity) });
          if (command === 'UpdateItemCommand') updates.push(Object.keys((result.output as { Attributes?: object }).Attributes ?? {}).sort());
          return result;
        },
        { step: 'initialize', name: 'checkWriteCounter', override: true },
      );
    }
  });
  return async function recorded<T>(run: () => Promise<T>): Promise<{ result: T; commands: Sent[]; reads: Read[]; updates: string[][] }> {
    sent.length = 0;
    reads.length = 0;
    updates.length = 0;
    recording = true;
    try {
      const result = await run();
      return { result, commands: [...sent], reads: [...reads], updates: [...updates] };
    } finally {
      recording = false;
    }
  };
}
