import { comparableVersion, compareVersions } from '../k8s/object-sequence.ts';
import { compareTimes } from '../k8s/time.ts';
import { observeChildJob, parseLabelInt } from './child-jobs.ts';
import { findCondition, type JobSetCondition } from './conditions.ts';
import { CONDITION_TYPES, JOBFOLD_JOBSET_CONTROLLER_NAME, LABELS } from './constants.ts';
import type { DefaultedJobSetSpec } from './defaulting.ts';
import type { DeletedJobEvidence } from './decision-events.ts';
import type { JobObserved } from './events.ts';
import { firstSuspensionSeenAt, firstSuspensionVersion, suspendInForceAt, suspensionTimesNoted, type ChildJobView, type JobSetState, type StartedJob, type WalkEvidence } from './state.ts';

// Issue 21 for InOrder JobSets: an attempt's startup walk completes in the pass where its last
// replicated job has started (every Job ready or finished), and upstream writes
// `StartupPolicyCompleted` True then, before any later failure restarts the JobSet (the failure
// policy runs first in a pass, so a walk completes only in a pass without a failure). When the
// failure reaches the log before the snapshots that showed the Jobs ready, the fold restarts the
// JobSet without ever seeing that walk complete, and the condition the cluster wrote before its
// `RestartingJobSet` is missing, or comes after it. So every child Job snapshot, late or not,
// notes when the cluster first showed the Job started and when its attempt first failed (on the
// cluster's clock): an attempt whose walk completed strictly before its first failure had its
// `StartupPolicyCompleted` written before the restart. A failure in the same second goes first,
// as in one pass, unless the Jobs' resourceVersions show the last start first (the cluster
// reconciled that snapshot before the failure's). Not for a JobSet jobfold runs: its walk is the
// one it enacted.

/**
 * What a child Job snapshot adds to `walkEvidence`: when its Job first showed started (by its
 * `at`) and when its attempt first failed (the Failed condition's time, else `at`). Only what the
 * fold may still need is kept: for an InOrder JobSet it does not run (or one not seen yet), the
 * current attempt and the one its last restart ended.
 */
export function noteWalkEvidence(state: JobSetState, event: JobObserved): Pick<JobSetState, 'walkEvidence'> | undefined {
  if (!walkEvidenceKept(state)) return undefined;
  const attempt = parseLabelInt(event.job.metadata.labels?.[LABELS.restartAttempt]);
  if (attempt === undefined || attempt < state.restarts - 1) return undefined;
  const job = observeChildJob(undefined, event.job, 0);
  if (job.replicatedJob === undefined) return undefined;
  const pods = job.completions !== undefined && job.completions < job.parallelism ? job.completions : job.parallelism;
  const started = job.finished !== undefined || job.succeeded + job.ready >= pods;
  if (!started) return undefined;
  const evidence: WalkEvidence = state.walkEvidence ?? { started: {}, failedAt: {} };
  const uid = event.job.metadata.uid;
  const key = startedKey(attempt, job.name, uid);
  const known = evidence.started[key];
  const startedAt = known === undefined || compareTimes(event.at, known.at) < 0 ? event.at : known.at;
  const seen = comparableVersion(event.job.metadata.resourceVersion);
  const newer = seen !== undefined && (known?.version === undefined || compareVersions(seen, known.version) > 0);
  const version = newer ? seen : known?.version;
  const older = seen !== undefined && (known?.firstVersion === undefined || compareVersions(seen, known.firstVersion) < 0);
  const firstVersion = older ? seen : known?.firstVersion;
  const failure = job.finished === 'Failed' ? (job.failure?.lastTransitionTime ?? event.at) : undefined;
  const failedBefore = evidence.failedAt[attempt];
  const earlierFailure = failure !== undefined && (failedBefore === undefined || compareTimes(failure, failedBefore) < 0);
  const failedAt = earlierFailure ? failure : failedBefore;
  const versionBefore = evidence.failedVersion?.[attempt];
  // The oldest snapshot showing the attempt's first failure: a start of that second older than it came first.
  const sameFailure = failure !== undefined && failedBefore !== undefined && compareTimes(failure, failedBefore) === 0;
  const failedVersion = earlierFailure ? seen : sameFailure && seen !== undefined && (versionBefore === undefined || compareVersions(seen, versionBefore) < 0) ? seen : versionBefore;
  if (startedAt === known?.at && !newer && !older && failedAt === failedBefore && failedVersion === versionBefore) return undefined;
  const kept = (k: string) => Number(k.slice(0, k.indexOf('/'))) >= state.restarts - 1;
  const keptAttempt = ([a]: [string, string]) => Number(a) >= state.restarts - 1;
  const failedVersions: Record<string, string> = Object.fromEntries(Object.entries(evidence.failedVersion ?? {}).filter((entry) => keptAttempt(entry) && Number(entry[0]) !== attempt));
  if (failedVersion !== undefined) failedVersions[attempt] = failedVersion;
  return {
    walkEvidence: {
      started: {
        ...Object.fromEntries(Object.entries(evidence.started).filter(([k]) => kept(k))),
        [key]: { name: job.name, ...(uid === undefined ? {} : { uid }), replicatedJob: job.replicatedJob, at: startedAt, ...(version === undefined ? {} : { version }), ...(firstVersion === undefined ? {} : { firstVersion }) },
      },
      failedAt: { ...Object.fromEntries(Object.entries(evidence.failedAt).filter(keptAttempt)), ...(failedAt === undefined ? {} : { [attempt]: failedAt }) },
      ...(Object.keys(failedVersions).length === 0 ? {} : { failedVersion: failedVersions }),
    },
  };
}

/** Walk evidence is kept for an InOrder JobSet jobfold does not run, or one not seen yet. */
function walkEvidenceKept(state: JobSetState): boolean {
  const spec = state.jobSet?.spec;
  return spec === undefined || walkedByCluster(spec);
}

/** An InOrder JobSet jobfold does not run: its cluster's controller walks the startup order, and the fold reads the walk from the evidence. */
const walkedByCluster = (spec: DefaultedJobSetSpec): boolean =>
  spec.startupPolicy.startupPolicyOrder === 'InOrder' && spec.managedBy !== JOBFOLD_JOBSET_CONTROLLER_NAME;

/** Where `walkEvidence.started` keeps a Job: by attempt, name and (when it has one) uid. */
const startedKey = (attempt: number, name: string, uid: string | undefined): string => (uid === undefined ? `${attempt}/${name}` : `${attempt}/${name}/${uid}`);

/** The view's Job's started evidence (its attempt, name and uid), if any. */
export function startedEvidenceOf(state: JobSetState, job: ChildJobView): StartedJob | undefined {
  return state.walkEvidence?.started[startedKey(job.restartAttempt ?? 0, job.name, job.uid)];
}

/**
 * The Jobs of `attempt` the cluster showed started, each with when its deletion was reported, if
 * it was (`deletedChildren`): a user may delete a started Job, and the one its controller creates
 * again under the name is another object, not started until shown so (upstream's walk waits for
 * it). A deleted Job's start counts for no instant after its deletion; a restart's deletions come
 * after the failure they follow, so they leave that attempt's walk as it was then.
 */
export function startedJobs(state: JobSetState, attempt: number): readonly (StartedJob & { readonly deletedAt?: string })[] {
  const evidence = state.walkEvidence;
  if (evidence === undefined) return [];
  return Object.entries(evidence.started).filter(([key]) => key.startsWith(`${attempt}/`)).map(([, seen]) => {
    const deletedAt = seen.uid === undefined ? undefined : state.deletedChildren?.[seen.uid];
    return deletedAt === undefined ? seen : { ...seen, deletedAt };
  });
}

/** Whether every replicated job has as many Jobs (distinct names: one object at a time under each) passing `counts` as it has replicas. */
export function everyReplicaStarted(spec: DefaultedJobSetSpec, started: readonly StartedJob[], counts: (seen: StartedJob) => boolean): boolean {
  return spec.replicatedJobs.every((rjob) => new Set(started.filter((s) => s.replicatedJob === rjob.name && counts(s)).map((s) => s.name)).size >= rjob.replicas);
}

/**
 * Whether the cluster's walk of `attempt` completed before the attempt's first failure: every
 * replicated job had all its replicas seen started, the last of them strictly before that failure.
 */
export function walkCompletedBeforeFailure(spec: DefaultedJobSetSpec, state: JobSetState, attempt: number): boolean {
  const failedAt = state.walkEvidence?.failedAt[attempt];
  return failedAt !== undefined && walkCompletedBefore(spec, state, attempt, failedAt, { finishVersion: state.walkEvidence?.failedVersion?.[attempt] });
}

/**
 * Whether the cluster's walk of `attempt` completed strictly before `instant` (the attempt's
 * failure, or the success that completed the JobSet): every replicated job had all its replicas
 * seen started before it. In the same second (`at` `sameSecond`, a suspension: upstream's pass
 * walks before it suspends) the walk counts as before it. Against a finish in the same second the
 * Jobs' resourceVersions tell (one resource type, comparable since KEP-5504): a Job first shown
 * started at an older version than the oldest snapshot of the finish (`finishVersion`) started
 * first, as the cluster reconciled each snapshot; without comparable versions the walk comes
 * second, as in one pass (upstream's failure and success policies run before the startup policy).
 */
function walkCompletedBefore(spec: DefaultedJobSetSpec, state: JobSetState, attempt: number, instant: string, { sameSecond = false, finishVersion }: { sameSecond?: boolean; finishVersion?: string | undefined } = {}): boolean {
  // In the second of a suspension whose resourceVersion is known (`finishVersion`), a start shown at an older one came first; without one, the walk goes first.
  const versionTells = (s: StartedJob) => sameSecond && finishVersion !== undefined && s.firstVersion !== undefined;
  const evidence = state.walkEvidence;
  if (evidence === undefined || !walkedByCluster(spec)) return false;
  const started = startedJobs(state, attempt);
  const before = (s: (typeof started)[number]): boolean => {
    // A Job deleted before the instant was gone by then (one deleted in its second, after it).
    if (s.deletedAt !== undefined && compareTimes(s.deletedAt, instant) < 0) return false;
    const order = compareTimes(s.at, instant);
    if (order !== 0 || (sameSecond && !versionTells(s))) return order <= (sameSecond ? 0 : -1);
    return finishVersion !== undefined && s.firstVersion !== undefined && compareVersions(s.firstVersion, finishVersion) < 0;
  };
  return everyReplicaStarted(spec, started, before);
}

/**
 * `Suspended`, placed after the `StartupPolicyCompleted` of the first walk (the walk looked
 * complete by the first suspension the fold knew then, `suspensionAfterWalk`), when an earlier
 * suspension seen since came before that walk completed on the cluster's clock: the cluster wrote
 * `Suspended` first. The condition to move before `StartupPolicyCompleted`, if any. Before any
 * restart, or after one when that suspension came before the failure that restarted the JobSet
 * (the first walk's evidence is still kept then, and the condition is the first walk's, which the
 * next walk only turned False), as `completedWalkAfterSuspension` below.
 */
export function suspensionBeforeWalkOutOfPlace(state: JobSetState): JobSetCondition | undefined {
  const spec = state.jobSet?.spec;
  const suspendedAt = firstSuspensionSeenAt(state);
  if (spec === undefined || state.restarts > 1 || suspendedAt === undefined) return undefined;
  const failedAt = state.walkEvidence?.failedAt[0];
  if (state.restarts === 1 && (failedAt === undefined || compareTimes(suspendedAt, failedAt) >= 0)) return undefined;
  const completed = state.conditions.findIndex((c) => c.type === CONDITION_TYPES.startupPolicyCompleted);
  const suspended = state.conditions.findIndex((c) => c.type === CONDITION_TYPES.suspended);
  if (completed === -1 || suspended < completed) return undefined;
  // The first walk completed, and only after the suspension.
  const completed0 = walkCompletedAt(spec, state, 0) !== undefined;
  return completed0 && !walkCompletedBySuspensionAt(spec, state, 0, suspendedAt, firstSuspensionVersion(state)) ? state.conditions[suspended] : undefined;
}

/**
 * The other way round: `StartupPolicyCompleted` standing after `Suspended` while the first walk
 * completed by the first suspension (its ready snapshots arrived after the fold had placed the
 * suspension): the cluster wrote it first. The condition to move before `Suspended`, if any. After
 * one restart too, when that suspension came before the failure that restarted the JobSet (the
 * first walk's evidence is still kept then; the next walk only turned the condition False).
 */
export function completedWalkAfterSuspension(state: JobSetState): JobSetCondition | undefined {
  const spec = state.jobSet?.spec;
  const suspendedAt = firstSuspensionSeenAt(state);
  if (spec === undefined || state.restarts > 1 || suspendedAt === undefined) return undefined;
  const failedAt = state.walkEvidence?.failedAt[0];
  if (state.restarts === 1 && (failedAt === undefined || compareTimes(suspendedAt, failedAt) >= 0)) return undefined;
  // Completed by it, though a Job deleted since (its TTL's) no longer counts then.
  if (!walkCompletedBySuspensionAt(spec, state, 0, suspendedAt, firstSuspensionVersion(state))) return undefined;
  const completed = state.conditions.findIndex((c) => c.type === CONDITION_TYPES.startupPolicyCompleted);
  const suspended = state.conditions.findIndex((c) => c.type === CONDITION_TYPES.suspended);
  return suspended !== -1 && completed > suspended ? state.conditions[completed] : undefined;
}

/**
 * Whether the current attempt's walk completed by `since`, a suspension seen late, in the same
 * second too: upstream's pass runs the startup policy before it suspends, so the cluster wrote
 * `StartupPolicyCompleted` before `Suspended`.
 */
export function walkCompletedBySuspension(state: JobSetState, since: string, version: string | undefined): boolean {
  const spec = state.jobSet?.spec;
  return spec !== undefined && walkCompletedBefore(spec, state, state.restarts, since, { sameSecond: true, finishVersion: version });
}

/**
 * Decide side, once the JobSet finished: its current attempt's walk completed on the cluster
 * before the JobSet completed (at `finishedAt`, when it did) or failed, and the fold never wrote
 * that (the finish arrived before the Jobs' ready snapshots). Upstream wrote
 * `StartupPolicyCompleted` then; the fold writes it now, in its place before the finish
 * (`placeOfCompletedWalk`).
 */
export function walkCompletedBeforeFinish(spec: DefaultedJobSetSpec, state: JobSetState, finishedAt: string | undefined, finishVersion: string | undefined): boolean {
  if (findCondition(state.conditions, CONDITION_TYPES.startupPolicyCompleted)?.status === 'True') return false;
  if (state.terminalState === 'Failed') return walkCompletedBeforeFailure(spec, state, state.restarts);
  return finishedAt !== undefined && walkCompletedBefore(spec, state, state.restarts, finishedAt, { finishVersion });
}

/**
 * Decide side, after a restart: the walk of the attempt it ended completed on the cluster before
 * its failure, and the fold never wrote that (its ready Jobs reached the log after the restart).
 * Upstream wrote `StartupPolicyCompleted` True before the restart, then False when the next walk
 * began; the fold writes it now (`placeOfCompletedWalk` puts it before `RestartingJobSet`), and
 * the walk in progress turns it False as upstream's did. On a suspended spec too: when the JobSet
 * ran when it failed (`jobSetTimeline`), the cluster's passes after the restart began the next walk
 * before the suspension (the caller writes its InProgress), else the completion stands.
 */
export function endedWalkCompletedUnseen(spec: DefaultedJobSetSpec, state: JobSetState): boolean {
  if (state.restarts === 0 || findCondition(state.conditions, CONDITION_TYPES.startupPolicyCompleted) !== undefined) return false;
  return endedWalkCompleted(spec, state);
}

/**
 * Whether the walk of the attempt the last restart ended completed on the cluster before its
 * failure: complete at the failure, or complete earlier and begun again since (a finished Job
 * deleted, its TTL's, and created anew). Upstream wrote `StartupPolicyCompleted` True either way,
 * and the next walk turned it False.
 */
function endedWalkCompleted(spec: DefaultedJobSetSpec, state: JobSetState): boolean {
  const ended = state.restarts - 1;
  if (walkCompletedBeforeFailure(spec, state, ended)) return true;
  if (!walkedByCluster(spec)) return false;
  const failedAt = state.walkEvidence?.failedAt[ended];
  const completedAt = walkCompletedAt(spec, state, ended);
  return failedAt !== undefined && completedAt !== undefined && compareTimes(completedAt, failedAt) < 0;
}

/**
 * Decide side, before the failure policy acts on the current attempt: its walk completed on the
 * cluster before the failure and the fold never wrote that (the failure arrived first).
 */
export function walkCompletedUnseen(spec: DefaultedJobSetSpec, state: JobSetState): boolean {
  if (spec.suspend || findCondition(state.conditions, CONDITION_TYPES.startupPolicyCompleted)?.status === 'True') return false;
  return walkCompletedBeforeFailure(spec, state, state.restarts);
}

/**
 * Decide side, on an InOrder JobSet: its current attempt's walk completed on the cluster by the
 * time it was first shown suspended (`suspensionAfterWalk`), and the fold, holding a later spec
 * (suspended, or resumed with a walk begun again) before the ready snapshots or the running spec,
 * never wrote it. Upstream wrote `StartupPolicyInProgress` then `StartupPolicyCompleted` True
 * before `Suspended` (a suspension leaves the startup conditions alone); the fold writes both now,
 * in that place, and a walk in progress now turns the completion False again, as upstream's did.
 */
export function walkCompletedBeforeSuspensionUnseen(spec: DefaultedJobSetSpec, state: JobSetState): boolean {
  if (!walkedByCluster(spec)) return false;
  if (findCondition(state.conditions, CONDITION_TYPES.startupPolicyCompleted) !== undefined) return false;
  const suspendedAt = firstSuspensionSeenAt(state);
  const completedAt = walkCompletedAt(spec, state, state.restarts);
  if (suspendedAt === undefined || completedAt === undefined) return false;
  // By the first suspension, or later while a resumed spec was in force.
  return walkCompletedBySuspensionAt(spec, state, state.restarts, suspendedAt, firstSuspensionVersion(state)) || suspendInForceAt(state, completedAt) === false;
}

/**
 * Decide side, on a suspended InOrder JobSet jobfold does not run, restarted on a failure that came
 * while it ran (the spec in force just before the failure was a resumed one; in the failure's
 * second, by the resourceVersions): the cluster's passes after the restart, before the suspension,
 * began the next walk and wrote `StartupPolicyInProgress` True (turning a completed walk's
 * condition False). The fold, holding the suspended spec when the failure arrived, restarted on it
 * and, suspended, wrote no walk (upstream skips the startup conditions of a suspended JobSet). Not
 * once the current attempt's walk completed on the evidence, nor while InProgress stands True.
 */
export function nextWalkBegunBeforeSuspension(spec: DefaultedJobSetSpec, state: JobSetState): boolean {
  if (!spec.suspend || state.restarts === 0 || !walkedByCluster(spec)) return false;
  const failedAt = state.restartEvidence?.failedAt;
  if (failedAt === undefined || findCondition(state.conditions, CONDITION_TYPES.startupPolicyInProgress)?.status === 'True') return false;
  if (walkCompletedAt(spec, state, state.restarts) !== undefined) return false;
  return suspendInForceAt(state, failedAt, state.walkEvidence?.failedVersion?.[state.restarts - 1]) === false;
}

/**
 * Decide side, the other way: a suspended InOrder JobSet jobfold does not run, after a restart,
 * whose current attempt's walk completed on the evidence while the JobSet ran, none of the Jobs
 * that completed it deleted (and, the caller checks, the last resumption began no walk again),
 * while `StartupPolicyCompleted` stands False: the fold began that walk (`nextWalkBegunBeforeSuspension`) before the ready snapshots
 * arrived; the cluster wrote the completion before the suspension.
 */
export function nextWalkCompletedBeforeSuspension(spec: DefaultedJobSetSpec, state: JobSetState): boolean {
  if (!spec.suspend || state.restarts === 0 || !walkedByCluster(spec)) return false;
  if (findCondition(state.conditions, CONDITION_TYPES.startupPolicyCompleted)?.status !== 'False') return false;
  const completion = walkCompletion(spec, state, state.restarts);
  if (completion === undefined || startedJobs(state, state.restarts).some((s) => s.deletedAt !== undefined)) return false;
  return suspendInForceAt(state, completion.at, completion.version) === false;
}

/**
 * A resumed InOrder JobSet jobfold does not run, whose walk (of the current attempt, or of the one
 * the last restart ended) completed on the evidence while a resumed spec was in force, after a
 * suspension and with none since (`jobSetTimeline`, the suspensions noted): upstream's pass then
 * found the walk complete and turned `Suspended` False / ResumeJobs, and a walk begun again since
 * (a Job deleted and created anew, a restart) leaves that condition alone. The fold, given the
 * suspension late or the completion's Job already deleted, saw no complete walk on its view.
 */
export function walkCompletedWhileResumed(spec: DefaultedJobSetSpec, state: JobSetState): boolean {
  if (spec.suspend || !walkedByCluster(spec)) return false;
  const suspensions = [...suspensionTimesNoted(state), ...(state.jobSetTimeline ?? []).filter((seen) => seen.suspend).map((seen) => seen.at)];
  const resumedWalk = (attempt: number): boolean => {
    const completion = attempt < 0 ? undefined : walkCompletion(spec, state, attempt);
    // The spec in force just before the completion (in its second, a resumption shown at an older resourceVersion came first).
    if (completion === undefined || suspendInForceAt(state, completion.at, completion.version) !== false) return false;
    const completedAt = completion.at;
    return suspensions.some((at) => compareTimes(at, completedAt) < 0) && suspensions.every((at) => compareTimes(at, completedAt) < 0);
  };
  return resumedWalk(state.restarts) || resumedWalk(state.restarts - 1);
}

/**
 * Whether the walk of `attempt` first completed by the suspension at `suspendedAt` (of
 * resourceVersion `version`, when known): before its second, or in it when the start that
 * completed the walk was shown at an older resourceVersion (one etcd, docs/ordering.md); without
 * versions, in its second the walk goes first (upstream's pass walks before it suspends).
 */
function walkCompletedBySuspensionAt(spec: DefaultedJobSetSpec, state: JobSetState, attempt: number, suspendedAt: string, version: string | undefined): boolean {
  const completion = walkCompletion(spec, state, attempt);
  if (completion === undefined) return false;
  const order = compareTimes(completion.at, suspendedAt);
  if (order !== 0) return order < 0;
  return version === undefined || completion.version === undefined || compareVersions(completion.version, version) < 0;
}

/**
 * When the walk of `attempt` completed on the evidence: the first of its Jobs' first showing
 * started by which every replica of every replicated job was seen started and not yet deleted (a
 * Job deleted later, its TTL's or a user's, no longer counts for later instants, but the walk
 * completed then). Undefined before.
 */
export function walkCompletedAt(spec: DefaultedJobSetSpec, state: JobSetState, attempt: number): string | undefined {
  return walkCompletion(spec, state, attempt)?.at;
}

/** `walkCompletedAt`, with the newest resourceVersion among the starts of that second (undefined when one has none). */
function walkCompletion(spec: DefaultedJobSetSpec, state: JobSetState, attempt: number): { readonly at: string; readonly version: string | undefined } | undefined {
  const started = startedJobs(state, attempt);
  // The first of the Jobs' starts by which every replica was started and not yet deleted.
  const present = (at: string) => (s: (typeof started)[number]) => compareTimes(s.at, at) <= 0 && (s.deletedAt === undefined || compareTimes(s.deletedAt, at) > 0);
  const at = started.map((s) => s.at).sort(compareTimes).find((instant) => everyReplicaStarted(spec, started, present(instant)));
  if (at === undefined) return undefined;
  const versions = started.filter((s) => compareTimes(s.at, at) === 0 && present(at)(s)).map((s) => s.firstVersion);
  const version = versions.some((v) => v === undefined) ? undefined : (versions as string[]).reduce((newest, v) => (compareVersions(v, newest) > 0 ? v : newest));
  return { at, version };
}

/**
 * Decide side: the `StartupPolicyCompleted` the fold wrote for an InOrder JobSet it does not run,
 * when, on the evidence as it stands now, no walk of any attempt completed: the view it was
 * written on lacked a user's deletion of one of the Jobs that completed the walk in it, which the
 * cluster made before the walk could complete (before the last start, or in its second: a deletion
 * of the second comes first, `walkCompletion`), and the Job created again under its name never
 * started. Upstream writes the condition only in the pass where the walk completes, so the cluster
 * never wrote it: it is taken out (a `JobSetConditionChanged` with `retracted`, naming the started
 * Jobs deleted). A user's deletion can come at any time, so the fold cannot wait for it as it does
 * for a TTL's (ttl-deletion-pending.ts). Only while the evidence of every attempt is kept (at most
 * one restart: `noteWalkEvidence` keeps the current attempt and the one before), and only when a
 * started Job was deleted (without a deletion, a walk the fold saw complete did complete).
 */
export function walkNeverCompleted(state: JobSetState): { readonly condition: JobSetCondition; readonly deletedJobs: readonly DeletedJobEvidence[] } | undefined {
  const spec = state.jobSet?.spec;
  if (spec === undefined || !walkedByCluster(spec) || state.restarts > 1 || state.walkEvidence === undefined) return undefined;
  const condition = findCondition(state.conditions, CONDITION_TYPES.startupPolicyCompleted);
  if (condition === undefined || state.terminalState !== '') return undefined;
  const finished = new Set([...Object.values(state.goneSuccesses ?? {}), ...Object.values(state.children).filter((job) => job.finished !== undefined)].map((job) => job.uid));
  const attempts = Array.from({ length: state.restarts + 1 }, (_, attempt) => attempt);
  const deletedJobs: DeletedJobEvidence[] = [];
  for (const attempt of attempts) {
    const failedAt = state.walkEvidence.failedAt[attempt];
    // A user's deletion: of a Job not seen finished (the TTL controller and a finished JobSet delete finished ones), before the attempt's failure (a restart deletes after it).
    const byUser = (s: StartedJob & { readonly deletedAt?: string }): boolean =>
      s.deletedAt !== undefined && !finished.has(s.uid) && (failedAt === undefined || compareTimes(s.deletedAt, failedAt) < 0);
    const started = startedJobs(state, attempt);
    // Every replica started and not deleted yet at one of the starts; a user's deletion in that second came first (the walk did not complete in it).
    const present = (at: string) => (s: (typeof started)[number]) =>
      compareTimes(s.at, at) <= 0 && (s.deletedAt === undefined || compareTimes(s.deletedAt, at) > 0 || (!byUser(s) && compareTimes(s.deletedAt, at) === 0));
    if (started.some((s) => everyReplicaStarted(spec, started, present(s.at)))) return undefined;
    for (const s of started) if (byUser(s)) deletedJobs.push({ name: s.name, ...(s.uid === undefined ? {} : { uid: s.uid }), startedAt: s.at, deletedAt: s.deletedAt! });
  }
  return deletedJobs.length === 0 ? undefined : { condition, deletedJobs };
}

/**
 * Decide side, when the ready snapshots arrived only after the next walk had completed too: the
 * fold wrote `StartupPolicyCompleted` after `RestartingJobSet`, where the cluster wrote it before.
 * The condition to move before `RestartingJobSet` (a `JobSetConditionChanged` with `movedBefore`), if any.
 */
export function completedWalkOutOfPlace(state: JobSetState): JobSetCondition | undefined {
  const spec = state.jobSet?.spec;
  if (spec === undefined || state.restarts === 0) return undefined;
  const completed = state.conditions.findIndex((c) => c.type === CONDITION_TYPES.startupPolicyCompleted);
  const restarting = state.conditions.findIndex((c) => c.type === CONDITION_TYPES.restartingJobSet);
  if (completed === -1 || restarting === -1 || completed < restarting) return undefined;
  return walkCompletedBeforeFailure(spec, state, state.restarts - 1) ? state.conditions[completed] : undefined;
}

/**
 * An InOrder JobSet's `StartupPolicyInProgress` written after `RestartingJobSet` (the walk's
 * evidence, a late running observation, arrived after the restart): the cluster's first walk
 * wrote it in the pass that created the first Jobs, before any of them could fail, so before any
 * restart. The condition to move before `RestartingJobSet`, if any.
 */
export function walkBeganOutOfPlace(state: JobSetState): JobSetCondition | undefined {
  if (state.jobSet?.spec.startupPolicy.startupPolicyOrder !== 'InOrder') return undefined;
  const inProgress = state.conditions.findIndex((c) => c.type === CONDITION_TYPES.startupPolicyInProgress);
  const restarting = state.conditions.findIndex((c) => c.type === CONDITION_TYPES.restartingJobSet);
  return inProgress !== -1 && restarting !== -1 && inProgress > restarting ? state.conditions[inProgress] : undefined;
}

/**
 * `StartupPolicyInProgress` standing after `StartupPolicyCompleted` (the completed walk was placed
 * before a suspension the walk's beginning was moved before only later): every walk writes
 * InProgress in its first pass, so the cluster's came first. The condition to move before
 * `StartupPolicyCompleted`, if any.
 */
export function walkBeganAfterCompletion(state: JobSetState): JobSetCondition | undefined {
  const inProgress = state.conditions.findIndex((c) => c.type === CONDITION_TYPES.startupPolicyInProgress);
  const completed = state.conditions.findIndex((c) => c.type === CONDITION_TYPES.startupPolicyCompleted);
  return completed !== -1 && inProgress > completed ? state.conditions[inProgress] : undefined;
}

/**
 * Evolve side, where the fold first writes `StartupPolicyCompleted`: before the finish of a
 * finished JobSet (the walk completed before it, `walkCompletedBeforeFinish`); before the
 * `RestartingJobSet` the cluster wrote after it, when the attempt the last restart ended had
 * completed its walk before failing (its ready Jobs reached the log after that restart).
 */
export function placeOfCompletedWalk(state: JobSetState): number | undefined {
  const spec = state.jobSet?.spec;
  if (spec === undefined) return undefined;
  const suspension = suspensionAfterWalk(state);
  // A finished JobSet's walk is written only when its completion arrived after the finish.
  if (state.terminalState !== '') {
    const finish = state.conditions.findIndex((c) => c.type === state.terminalState && c.status === 'True');
    return finish === -1 ? suspension : suspension === undefined ? finish : Math.min(finish, suspension);
  }
  if (state.restarts === 0) return suspension;
  if (findCondition(state.conditions, CONDITION_TYPES.startupPolicyCompleted) !== undefined) return undefined;
  if (!endedWalkCompleted(spec, state)) return undefined;
  const restarting = state.conditions.findIndex((c) => c.type === CONDITION_TYPES.restartingJobSet);
  return restarting === -1 ? undefined : restarting;
}

/**
 * Where `Suspended` stands when the current attempt's walk completed by the first time the cluster
 * showed the JobSet suspended (in the same second too: upstream's pass walks before it suspends):
 * the cluster wrote `StartupPolicyCompleted` before it, though the fold, holding the suspended
 * spec first, saw the walk complete only later (at the finish, or from a late ready snapshot).
 */
export function suspensionAfterWalk(state: JobSetState): number | undefined {
  const suspendedAt = firstSuspensionSeenAt(state);
  if (suspendedAt === undefined || !walkCompletedBySuspension(state, suspendedAt, firstSuspensionVersion(state))) return undefined;
  const suspended = state.conditions.findIndex((c) => c.type === CONDITION_TYPES.suspended);
  return suspended === -1 ? undefined : suspended;
}

/**
 * Whether every replica of every replicated job of the current attempt was seen started at a
 * resourceVersion newer than `version` (its newest started snapshot), none of them deleted since:
 * the walk completed after it.
 */
export function walkStartedSince(spec: DefaultedJobSetSpec, state: JobSetState, version: string): boolean {
  const started = startedJobs(state, state.restarts).filter((s) => s.deletedAt === undefined);
  return everyReplicaStarted(spec, started, (s) => s.version !== undefined && compareVersions(s.version, version) > 0);
}
