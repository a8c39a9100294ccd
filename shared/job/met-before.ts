import { jobInputs, podInputs, rememberedCriterionMetAt, type JobInputs } from './criterion-instants.ts';
import type { JobState } from './state.ts';

// Issue 20: a finished Job jobfold does not run whose criterion reads its pods asks at every
// decide whether that criterion was met before the instant it finished on (decide.ts
// criterionMetEarlier, state.outcomeMetAt). The criteria's memo forgets its instants on every
// event that can move one, and each outcome arriving after the finish moves one: 16,000 such
// outcomes walked 16,000 pods 15,500 times (10.5 s), quadratic at 100,000 pods.
//
// Yet an outcome seen at or after that instant cannot put the criterion before it. Each
// criterion that reads the pods is one of their outcome instants picked by the instants
// before it: the (k+1)-th failure, the success that completes a rule's prefix, the latest
// failed or settled index, the policy's failing pod (criterion-instants.ts). Adding a pod's
// instant at or after T, or moving one that was, leaves every instant before T as it was, and
// so whether the criterion was met before T. The gate below remembers that decide found it
// not met before T, and stays shut while evolve folds only such events: pod observations
// of a pod read by no criterion before, that leave it so or make it read with its outcome seen
// at or after T, and change nothing else the criteria read (the counts only by that pod's own,
// the other pods only through the counts: criterion-instants.ts JobInputs). Every other
// event opens it; so does a pod put back from the archive (the count of pods). Not persisted:
// a state restored from a snapshot starts with it open.

/** What decide found: the criterion for `reason` not met before `before` (epoch ms) over `pods` pods. */
export interface MetBeforeGate {
  readonly reason: string;
  readonly before: number;
  pods: number;
  /** Set by evolve on any event that may have put an instant before `before`. */
  open: boolean;
}

/**
 * When the criterion for `reason` was met, if before `before` (epoch ms; the seen bound of
 * rememberedCriterionMetAt), else undefined: walked only when the gate is open.
 */
export function criterionMetBefore(state: JobState, reason: string, before: number): number | undefined {
  const memo = state.criterionMemo;
  const gate = memo.metBefore;
  if (gate !== undefined && !gate.open && gate.reason === reason && gate.before === before && gate.pods === state.pods.size) return undefined;
  const at = rememberedCriterionMetAt(state, reason);
  if (at !== undefined && at < before) {
    memo.metBefore = undefined;
    return at;
  }
  memo.metBefore = { reason, before, pods: state.pods.size, open: false };
  return undefined;
}

/** What a pod observation may change, taken before it is folded while the gate is shut. */
export interface MetBeforeMark {
  readonly pods: number;
  /** Whether the pod had a record (read by no criterion): else the observation adds one. */
  readonly known: boolean;
  readonly job: JobInputs;
}

/**
 * Undefined when the gate is open or absent (nothing to keep); 'open' when a criterion reads
 * the pod already: its observation may take it out of a set (uncounted), and the latest
 * settled index's instant can move back.
 */
export function metBeforeMark(state: JobState, uid: string): MetBeforeMark | 'open' | undefined {
  const gate = state.criterionMemo.metBefore;
  if (gate === undefined || gate.open) return undefined;
  const record = state.pods.get(uid);
  if (record !== undefined && podInputs(state, record) !== undefined) return 'open';
  return { pods: state.pods.size, known: record !== undefined, job: jobInputs(state) };
}

/** Evolve, after a pod observation: shut stays shut only if it added an instant at or after the gate's. */
export function noteObservationMetBefore(state: JobState, uid: string, mark: MetBeforeMark | 'open' | undefined): void {
  const gate = state.criterionMemo.metBefore;
  if (gate === undefined || gate.open || mark === undefined) return;
  if (mark === 'open' || !addsOnlyLater(state, uid, mark, gate.before)) gate.open = true;
  else gate.pods = state.pods.size;
}

/** Evolve, for any other event that may move an instant. */
export function openMetBefore(state: JobState): void {
  const gate = state.criterionMemo.metBefore;
  if (gate !== undefined) gate.open = true;
}

function addsOnlyLater(state: JobState, uid: string, mark: MetBeforeMark, before: number): boolean {
  const record = state.pods.get(uid);
  if (record === undefined || state.pods.size !== mark.pods + (mark.known ? 0 : 1)) return false;
  const after = podInputs(state, record);
  const job = jobInputs(state);
  const { job: was } = mark;
  // The criteria's other inputs as they were: the same settings, policy failure, failed
  // indexes and held pods (this pod not held: holding it may release another).
  if (job.settings !== was.settings || job.policyFailure !== was.policyFailure || job.failedIndexes !== was.failedIndexes ||
    job.failedIndexesSize !== was.failedIndexesSize || job.heldSize !== was.heldSize || job.heldCountable !== was.heldCountable) return false;
  // Counted by this pod's own outcome alone: another pod counted or uncounted moves the counts apart.
  const succeeded = after?.counted === 'succeeded' ? 1 : 0;
  const failed = after?.counted === 'failed' ? 1 : 0;
  if (job.succeeded !== was.succeeded + succeeded || job.failed !== was.failed + failed) return false;
  if (after === undefined) return true;
  return !after.held && after.seenAt !== undefined && after.seenAt >= before;
}
