import type { OutboundEvent } from '../contract/outbound.ts';
import type { NewCommand, NewEntry } from '../log/event-store.ts';
import { jsonBytes, MAX_COMMAND_DETAIL_BYTES, MAX_COMMIT_BYTES, MAX_COMMIT_COMMANDS, pagedEntryBytes } from '../log/event-store-limits.ts';
import { OUTBOX_PAGE_TYPE, type OutboxJob, type OutboxPageDetail, type TerminationPage } from './outbox-page.ts';

// What one batch of the log writer writes is cut into commit steps, each one conditioned commit
// within the store's limits (and so within one DynamoDB transaction): STEP_BYTES of entries, as
// their log pages store them, and outbox items of at most MAX_COMMAND_DETAIL_BYTES each: the
// first with the step's inline events, each with as many of its termination pages as fit
// (outbox-page.ts), all of them within MAX_COMMIT_BYTES with the entries and at most
// MAX_COMMIT_COMMANDS. So a termination's pods cost steps only by their bytes beside its log
// pages', not by one item's cap. A decision's outbox travels in the step
// that logs it, never a later one (a Job's sync gives all its inline events to its first
// decision; a termination page's pods go with that page), so a crash between two steps can leave
// commands queued for decisions not logged yet, but never a logged decision without its
// commands. The writer then logs the rest of that sync under the ids it had and queues none of
// them again (shared/decide/resume-cut-sync.ts). Steps are taken in order; the head condition
// orders them.

/** Bodies per step, below MAX_COMMIT_BYTES to leave room for the outbox item. */
export const STEP_BYTES = MAX_COMMIT_BYTES - MAX_COMMAND_DETAIL_BYTES - 64 * 1024;
/** An outbox item's events and pages, below MAX_COMMAND_DETAIL_BYTES to leave room for the rest of its detail. */
const ITEM_ROOM = MAX_COMMAND_DETAIL_BYTES - 4096;

/** An entry to log, with the inline events of the sync it opens (empty otherwise). */
export interface PlannedEntry {
  readonly entry: NewEntry;
  readonly inline: readonly OutboundEvent[];
  /** A termination page's pods, for the step's outbox item. */
  readonly terminations?: TerminationPage | undefined;
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
  /** The step's termination pages, in log order, grouped by the outbox item that carries them (the first also carries `inline`). */
  readonly terminations: TerminationPage[][];
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
  let step: {
    entries: NewEntry[]; inline: OutboundEvent[]; pages: TerminationPage[]; pageSizes: number[]; bytes: number; inlineBytes: number; pageBytes: number;
  } | undefined;
  let seq = head;
  const close = () => {
    if (step) {
      const terminations = packPages(step.inlineBytes, step.pageSizes).map((group) => group.map((j) => step?.pages[j] as TerminationPage));
      steps.push({ entries: step.entries, inline: step.inline, terminations, fromSeq: seq - step.entries.length + 1, toSeq: seq });
    }
    step = undefined;
  };
  const pageSize = (p: PlannedEntry | undefined) => (p?.terminations ? jsonBytes(p.terminations) : 0);
  const inlineSize = (p: PlannedEntry | undefined) => (p && p.inline.length > 0 ? jsonBytes(p.inline) : 0);
  planned.forEach((plannedEntry, i) => {
    const { entry, inline, terminations } = plannedEntry;
    const bytes = sizeAt(i);
    const inlineBytes = inlineSize(plannedEntry);
    const pageBytes = pageSize(plannedEntry);
    // An entry kept with the one after it is measured with it, so the pair never splits.
    const next = planned[i - 1]?.withNext ? undefined : planned[i]?.withNext ? planned[i + 1] : undefined;
    const pairBytes = next ? sizeAt(i + 1) : 0;
    const pairInline = inlineSize(next);
    const pairPage = pageSize(next);
    // Entries take STEP_BYTES, the outbox one item's room; outbox bytes beyond that room (pages
    // in several items) come out of the entries' share, whichever entry brings them.
    const outboxBytes = step ? step.inlineBytes + step.pageBytes + inlineBytes + pairInline + pageBytes + pairPage : 0;
    const full = step !== undefined && !planned[i - 1]?.withNext && (
      step.bytes + bytes + pairBytes + Math.max(outboxBytes, ITEM_ROOM) > stepBytes + ITEM_ROOM ||
      (inlineBytes + pairInline > 0 && step.inlineBytes + inlineBytes + pairInline > ITEM_ROOM) ||
      (pageBytes + pairPage > 0 &&
        packPages(step.inlineBytes + inlineBytes + pairInline, [...step.pageSizes, pageBytes, ...(pairPage > 0 ? [pairPage] : [])]).length > MAX_COMMIT_COMMANDS));
    if (full) close();
    step ??= { entries: [], inline: [], pages: [], pageSizes: [], bytes: 0, inlineBytes: 0, pageBytes: 0 };
    step.entries.push(entry);
    step.inline.push(...inline);
    if (terminations) {
      step.pages.push(terminations);
      step.pageSizes.push(pageBytes);
    }
    step.bytes += bytes;
    step.inlineBytes += inlineBytes;
    step.pageBytes += pageBytes;
    seq += 1;
  });
  close();
  return steps;
}

/**
 * Which termination pages (by index into `sizes`) each outbox item of a step carries: in order,
 * the first item after the step's inline events, each up to ITEM_ROOM (a page alone always fits:
 * it holds at most PAGE_BYTES of pod references, and a pod's name and uid are less).
 */
function packPages(inlineBytes: number, sizes: readonly number[]): number[][] {
  const groups: number[][] = [[]];
  let fill = inlineBytes;
  sizes.forEach((size, j) => {
    if (fill > 0 && fill + size > ITEM_ROOM) {
      groups.push([]);
      fill = 0;
    }
    (groups.at(-1) as number[]).push(j);
    fill += size;
  });
  return groups;
}

/**
 * The outbox items of a step, none when it has nothing to publish. Their ids name the step's
 * first seq on this Job (and the item's place in the step after the first), so a step retried
 * after a conflict writes new ids only if it lands at another position — and a step that did
 * land is never retried.
 */
export function stepOutboxItems(
  job: OutboxJob, managedBy: string | undefined, step: CommitStep, createdAt: string,
): NewCommand[] {
  if (step.inline.length === 0 && step.terminations.every((group) => group.length === 0)) return [];
  return step.terminations.map((pages, n) => {
    const detail: OutboxPageDetail = {
      job: { clusterId: job.clusterId, namespace: job.namespace, name: job.name, uid: job.uid },
      managedBy,
      inline: n === 0 ? step.inline : [],
      ...(pages.length === 0 ? {} : { terminations: pages }),
    };
    return {
      commandId: n === 0 ? `${job.uid}/out/${step.fromSeq}` : `${job.uid}/out/${step.fromSeq}/${n}`,
      clusterId: job.clusterId,
      detailType: OUTBOX_PAGE_TYPE,
      detail,
      createdAt,
    };
  });
}
