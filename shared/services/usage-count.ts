/**
 * The change feed's usage consumer (contract §14): folds the tallies the check's writes carry into
 * the usage figures, exactly once. Each record is one write of a counter or a refusal tally; what it
 * changed is its new image against its old one (shared/domain/billing.ts). Runs of records are
 * added in one transaction each, with the positions of the items they came from, so a record
 * handed over again (a retried batch, a batch split another way, a crash after some runs) is
 * passed over.
 */
import { chunksOf, foldRun, seqKey, tallyChangeOf, type SourcedChange } from '../domain/billing';
import { backoff } from '../store/db/backoff';
import { image, type FeedRecord } from '../store/change-feed';
import { offboardedAmong } from '../store/offboarding';
import { addRun, loadMarks } from '../store/usage-figures';

export type { FeedRecord };

/** DynamoDB's items per transaction. */
const TRANSACTION_ITEMS = 100;
/** Reads of the positions and tries of a run before the batch is left to be handed over again. */
const ATTEMPTS = 20;

/** The records' changes to the figures, in stream order. */
function changesOf(records: readonly FeedRecord[]): SourcedChange[] {
  const out: SourcedChange[] = [];
  for (const r of records) {
    const next = image(r.dynamodb?.NewImage);
    const seq = r.dynamodb?.SequenceNumber;
    if (!next || !seq || r.eventName === 'REMOVE') continue;
    const change = tallyChangeOf(String(next.entity ?? ''), next, image(r.dynamodb?.OldImage));
    if (change) out.push({ source: `${String(next.PK)}|${String(next.SK)}`, seq: seqKey(seq), change });
  }
  return out;
}

/** Adds the records' changes to the figures; throws (the batch is handed over again) when a run keeps losing races. */
export async function countUsage(records: readonly FeedRecord[]): Promise<void> {
  const changes = changesOf(records);
  // An organisation being offboarded has its figures deleted: nothing is added for it any more.
  const offboarded = await offboardedAmong(changes.map((c) => c.change.org_id));
  for (const run of chunksOf(offboarded.size ? changes.filter((c) => !offboarded.has(c.change.org_id)) : changes, TRANSACTION_ITEMS)) {
    const sources = [...new Set(run.map((c) => c.source))];
    let added = false;
    for (let attempt = 0; !added && attempt < ATTEMPTS; attempt++) {
      if (attempt) await backoff(attempt);
      const marks = await loadMarks(sources);
      added = await addRun(foldRun(run, marks), marks);
    }
    if (!added) throw new Error(`usage figures: a run of ${run.length} changes lost ${ATTEMPTS} races; the batch will be handed over again`);
  }
}
