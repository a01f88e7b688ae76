/**
 * Which values of a rotating deployment secret a warm function accepts (docs/operating/security.md
 * "Rotate a deployment secret"): the current version always; the previous one only while the
 * rotation window, counted from the moment the current version was created, is open. Every
 * container measures the window from the same instant (the version's creation date in Secrets
 * Manager), so all of them stop accepting the old value together, however long each has been warm.
 */
export interface SecretVersion {
  value: string;
  /** When Secrets Manager created the version (ms since the epoch). */
  createdMs: number;
}

export interface SecretVersions {
  current: SecretVersion;
  /** The version staged AWSPREVIOUS, if any (none before the first rotation). */
  previous?: SecretVersion;
  /** When these versions were read (ms since the epoch): the next read is due `refreshMs` later. */
  readMs: number;
}

/** The instant the previous value stops being accepted. */
const windowEndsMs = (current: SecretVersion, windowMs: number): number => current.createdMs + windowMs;

/** Whether the previous version is still worth reading: its window has not closed yet. */
export const previousStillAccepted = (current: SecretVersion, windowMs: number, nowMs: number): boolean => nowMs < windowEndsMs(current, windowMs);

/** The values a credential may equal at `nowMs`. */
export function acceptedValues(v: SecretVersions, windowMs: number, nowMs: number): string[] {
  const out = [v.current.value];
  if (v.previous && v.previous.value !== v.current.value && previousStillAccepted(v.current, windowMs, nowMs)) out.push(v.previous.value);
  return out;
}

/** Whether the versions read at `readMs` must be read again (at most once per `refreshMs`). */
export const refreshDue = (v: Pick<SecretVersions, 'readMs'>, refreshMs: number, nowMs: number): boolean => nowMs - v.readMs >= refreshMs;
