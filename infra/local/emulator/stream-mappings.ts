/**
 * The template's DynamoDB stream event source mappings, fed as Lambda feeds them: each mapping keeps
 * its own position in the table's stream (kept in DATA_DIR) over records read once for all of them
 * (stream-reader.ts), passes over the records its FilterCriteria do not let through
 * (event-filter.ts), and invokes its function with the rest in the DynamoDBStreamEvent shape, as
 * GetRecords answered them (a binary attribute as base64 text, as Lambda hands it over). A batch
 * whose invocation fails is handed over again from the same position; a partial batch failure
 * resumes from the first record it names. The function runs in its runtime with its own role, so
 * what it writes is checked against its policy like every call.
 */
import type { DynamoDBBatchResponse } from 'aws-lambda';
import { join } from 'node:path';
import { repeating, streamConsumer } from '../change-feed';
import { streamReader } from '../stream-reader';
import type { Outcome } from './runtime';
import type { EmulatedStreamMapping } from './template';

export interface StreamFeedOptions {
  dynamoEndpoint: string;
  tableName: string;
  mappings: readonly EmulatedStreamMapping[];
  dataDir: string;
  invoke(functionId: string, event: unknown): Promise<Outcome>;
  log(line: string): void;
  pollMs?: number;
}

/** Starts feeding every mapping; `stop` resolves once the batches in hand are done. */
export function feedStreamMappings(opts: StreamFeedOptions): { stop(): Promise<void> } {
  const reader = streamReader(opts.dynamoEndpoint);
  let stopped = false;
  const isStopped = () => stopped;
  const loops = opts.mappings.map((m) => {
    const read = streamConsumer(reader, {
      tableName: opts.tableName,
      name: m.logicalId,
      handler: async (event) => {
        const out = await opts.invoke(m.functionId, event);
        if (!out.ok) throw new Error(`${m.functionId}: ${out.error.errorMessage}`);
        return (out.result as DynamoDBBatchResponse | null) ?? { batchItemFailures: [] };
      },
      filters: m.patterns,
      checkpointFile: join(opts.dataDir, `stream-${m.logicalId}.json`),
      log: opts.log,
      stopped: isStopped,
      // As the mapping's BatchSize (GetRecords hands over at most 1,000).
      batch: Math.min(m.batchSize, 1000),
    });
    return repeating(`stream ${m.logicalId}`, `feeding ${m.functionId}`, opts.pollMs ?? 250, read, opts.log, isStopped);
  });
  return {
    async stop() {
      stopped = true;
      for (const l of loops) l.wake();
      await Promise.all(loops.map((l) => l.running));
      reader.close();
    },
  };
}
