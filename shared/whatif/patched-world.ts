import type { JobCommand } from '../job/commands.ts';
import { JOB_INDEX_FAILURE_COUNT_ANNOTATION, JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION } from '../k8s/job-controller.ts';
import type { PodObserved } from '../job/events.ts';
import type { JobState } from '../job/state.ts';
import type { DecisionSummary } from './report.ts';

type IndexCounts = { readonly failures: number; readonly ignored: number };

/**
 * Which recorded pods exist in the patched world, and how they look there. Two differences
 * between the worlds can be followed exactly, without inventing an event:
 *
 * - An index the patched fold has failed (FailIndex, a lower backoffLimitPerIndex) and the
 *   recorded one has not gets no more pods in the patched world. The pods the record created for
 *   it after that are *phantoms*: their observations are not folded into the patched Job, and
 *   the record's creations and terminations of them are left out when the reconciles are
 *   compared. Every other pod is the same pod in both worlds.
 * - A patch that adds `backoffLimitPerIndex` to a Job recorded without it: the recorded pods
 *   carry no `batch.kubernetes.io/job-index-failure-count`, which the patched controller would
 *   have written when it created them (upstream `getNewIndexFailureCounts`). Each pod gets, in
 *   the patched fold, the counts the patched fold's own creation for its index carried.
 */
export class PatchedWorld {
  private readonly seen = new Set<string>();
  private readonly phantoms = new Set<string>();
  private readonly phantomNames = new Set<string>();
  /** Counts the patched fold's latest creation gave each index, for its next new pod. */
  private readonly pending = new Map<number, IndexCounts>();
  private readonly assigned = new Map<string, IndexCounts>();

  private readonly deriveIndexCounts: boolean;

  constructor(deriveIndexCounts: boolean) {
    this.deriveIndexCounts = deriveIndexCounts;
  }

  /** True once `uid` is a pod the patched world never created. */
  isPhantom(uid: string): boolean {
    return this.phantoms.has(uid);
  }

  /** Phantom pods so far (uids). */
  phantomPods(): ReadonlySet<string> {
    return this.phantoms;
  }

  /**
   * Called after the original fold took the observation of pod `uid`: false when the pod is a
   * phantom (first seen once the patched fold had failed its index).
   */
  admit(uid: string, original: JobState, patched: JobState): boolean {
    if (this.phantoms.has(uid)) return false;
    if (this.seen.has(uid)) return true;
    const record = original.pods.get(uid);
    const index = record?.index;
    if (index !== undefined && index >= 0 && isPhantomIndex(index, original, patched)) {
      this.phantoms.add(uid);
      if (record) this.phantomNames.add(record.name);
      return false;
    }
    this.seen.add(uid);
    return true;
  }

  /** The observation as the patched world's pod shows it (its index failure counts, if derived). */
  podAsPatched(event: PodObserved, index: number | undefined): PodObserved {
    if (!this.deriveIndexCounts || index === undefined || index < 0) return event;
    const uid = event.pod.metadata.uid;
    let counts = this.assigned.get(uid);
    if (!counts) {
      counts = this.pending.get(index) ?? { failures: 0, ignored: 0 };
      this.pending.delete(index);
      this.assigned.set(uid, counts);
    }
    const metadata = event.pod.metadata;
    const annotations = {
      ...metadata.annotations,
      [JOB_INDEX_FAILURE_COUNT_ANNOTATION]: String(counts.failures),
      [JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION]: String(counts.ignored),
    };
    return { ...event, pod: { ...event.pod, metadata: { ...metadata, annotations } } };
  }

  /** The patched fold created pods: remember the counts each index's next pod carries. */
  noteCreations(commands: readonly JobCommand[]): void {
    if (!this.deriveIndexCounts) return;
    for (const command of commands) {
      if (command.type !== 'CreatePod' || command.index === undefined) continue;
      this.pending.set(command.index, { failures: command.indexFailureCount ?? 0, ignored: command.indexIgnoredFailureCount ?? 0 });
    }
  }

  /**
   * What the record decided, without what it decided about phantoms: creations for indexes
   * the patched fold has failed, terminations of phantom pods.
   */
  withoutPhantoms(summaries: readonly DecisionSummary[], original: JobState, patched: JobState): DecisionSummary[] {
    const result: DecisionSummary[] = [];
    for (const summary of summaries) {
      if (summary.kind === 'creation' && summary.indexes) {
        const indexes = summary.indexes.filter((i) => !isPhantomIndex(i, original, patched));
        if (indexes.length === summary.indexes.length) result.push(summary);
        else if (indexes.length > 0) result.push({ ...summary, count: indexes.length, indexes });
      } else if (summary.kind === 'termination' && this.phantomNames.size > 0) {
        const pods = summary.pods.filter((name) => !this.phantomNames.has(name));
        if (pods.length > 0) result.push({ ...summary, pods });
      } else {
        result.push(summary);
      }
    }
    return result;
  }
}

const isPhantomIndex = (index: number, original: JobState, patched: JobState): boolean =>
  patched.status.failedIndexes.has(index) && !original.status.failedIndexes.has(index);
