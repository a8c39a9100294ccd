import type { OutboundEvent } from '../contract/outbound.ts';
import type { NewCommand, NewEntry } from '../app/event-store.ts';
import { jsonBytes, MAX_COMMAND_DETAIL_BYTES, MAX_COMMIT_BYTES, pagedEntryBytes } from '../app/event-store-limits.ts';
import { OUTBOX_PAGE_TYPE, type OutboxJob, type OutboxPageDetail } from './outbox-page.ts';

// What one batch of the log writer writes is cut into commit steps, each one conditioned commit
// within the store's limits (and so within one DynamoDB transaction): STEP_BYTES of entries, as
// their log pages store them, and one outbox item of at most MAX_COMMAND_DETAIL_BYTES. A
// decision's inline events travel in the step that logs it, never a later one (a Job's sync
// gives all its inline events to its first decision), so a crash between two steps can leave
// commands queued for decisions not logged yet, but never a logged decision without its
// commands. The writer then logs the rest of that sync under the ids it had and queues none of
// them again (shared/decide/resume-cut-sync.ts). Steps are taken in order; the head condition
// orders them.

/** Bodies per step, below MAX_COMMIT_BYTES to leave room for the outbox item. */
export const STEP_BYTES = MAX_COMMIT_BYTES - MAX_COMMAND_DETAIL_BYTES - 64 * 1024;

/** An entry to log, with the inline events of the sync it opens (empty otherwise). */
export interface PlannedEntry {
  readonly entry: NewEntry;
  readonly inline: readonly OutboundEvent[];
  /** The entry's commands are derived from the log by the publisher (termination pages). */
  readonly fromLog: boolean;
  /**
   * Commit it in the same step as the next entry: the log writer keeps the observation that
   * ends a run with its sync's first decision, so a log that ends with an observation is a
   * log whose last sync decided nothing (shared/decide/resume-cut-sync.ts).
   */
  readonly withNext?: boolean;
  /** The chain hash the entry gets where it is planned (when the chain before it is known). */
  readonly hash?: string;
}

export interface CommitStep {
  readonly entries: NewEntry[];
  readonly inline: OutboundEvent[];
  readonly fromSeq: number;
  readonly toSeq: number;
  /** Some entry of the step has commands the publisher derives from the log. */
  readonly fromLog: boolean;
}

/**
 * Cuts planned entries, to be logged at head + 1… with `recordedAt`, into steps. Entries share
 * log page items, and each counts as its page stores it (pagedEntryBytes), so a step fits one
 * transaction.
 */
export function commitSteps(head: number, planned: readonly PlannedEntry[], recordedAt: string, stepBytes = STEP_BYTES): CommitStep[] {
  const measure = (entry: NewEntry) => pagedEntryBytes(entry, recordedAt);
  // Each entry measured once: a pair's second entry is measured with the first, then alone.
  const sizes = new Map<number, number>();
  const sizeAt = (i: number) => {
    let size = sizes.get(i);
    if (size === undefined) sizes.set(i, (size = measure((planned[i] as PlannedEntry).entry)));
    return size;
  };
  const steps: CommitStep[] = [];
  let step: { entries: NewEntry[]; inline: OutboundEvent[]; fromLog: boolean; bytes: number; inlineBytes: number } | undefined;
  let seq = head;
  const close = () => {
    if (step) steps.push({ entries: step.entries, inline: step.inline, fromSeq: seq - step.entries.length + 1, toSeq: seq, fromLog: step.fromLog });
    step = undefined;
  };
  planned.forEach(({ entry, inline, fromLog }, i) => {
    const bytes = sizeAt(i);
    const inlineBytes = inline.length === 0 ? 0 : jsonBytes(inline);
    // An entry kept with the one after it is measured with it, so the pair never splits.
    const next = planned[i - 1]?.withNext ? undefined : planned[i]?.withNext ? planned[i + 1] : undefined;
    const pairBytes = next ? sizeAt(i + 1) : 0;
    const pairInline = next && next.inline.length > 0 ? jsonBytes(next.inline) : 0;
    const full = step !== undefined && !planned[i - 1]?.withNext && (
      step.bytes + bytes + pairBytes > stepBytes ||
      (inlineBytes + pairInline > 0 && step.inlineBytes + inlineBytes + pairInline > MAX_COMMAND_DETAIL_BYTES - 4096));
    if (full) close();
    step ??= { entries: [], inline: [], fromLog: false, bytes: 0, inlineBytes: 0 };
    step.entries.push(entry);
    step.inline.push(...inline);
    step.fromLog ||= fromLog;
    step.bytes += bytes;
    step.inlineBytes += inlineBytes;
    seq += 1;
  });
  close();
  return steps;
}

/**
 * The outbox item of a step, or undefined when it has nothing to publish. Its id names the
 * step's first seq on this Job, so a step retried after a conflict writes a new id only if it
 * lands at another position — and a step that did land is never retried.
 */
export function stepOutboxItem(
  job: OutboxJob, managedBy: string | undefined, step: CommitStep, createdAt: string,
): NewCommand | undefined {
  if (step.inline.length === 0 && !step.fromLog) return undefined;
  const detail: OutboxPageDetail = {
    job: { clusterId: job.clusterId, namespace: job.namespace, name: job.name, uid: job.uid },
    managedBy,
    inline: step.inline,
    range: step.fromLog ? { fromSeq: step.fromSeq, toSeq: step.toSeq } : undefined,
  };
  return {
    commandId: `${job.uid}/out/${step.fromSeq}`,
    clusterId: job.clusterId,
    detailType: OUTBOX_PAGE_TYPE,
    detail,
    createdAt,
  };
}
