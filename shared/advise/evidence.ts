import { familyId, familyOf, type Family } from '../fleet/family.ts';
import type { JobFacts, JobRef, PolicySpec } from './job-facts.ts';
import { handledByDefault } from '../policies/pod-failure-policy.ts';

// What a family's finished Jobs say, summed: the evidence proposals are mined from. A page of
// the scan adds its Jobs (`addJob`), the client merges pages (`mergeEvidence`): each Job is in
// one page, so counts add. Examples are the first few Jobs by name, whatever the page order,
// so the same fleet always gives the same advice.

/** Jobs named as examples of a finding. */
export const EXAMPLES = 3;

export interface Example {
  readonly job: JobRef;
  readonly pod?: string;
}

export interface FailureTally {
  readonly failures: number;
  readonly jobs: number;
  /** Failures after which a retry succeeded (the Job, or the failed index). */
  readonly retrySucceeded: number;
  readonly podSeconds: number;
  /** Failures per container (exit codes only). */
  readonly containers: Readonly<Record<string, number>>;
  readonly examples: readonly Example[];
}

export interface FamilyEvidence {
  readonly id: string;
  readonly family: Family;
  readonly clusters: readonly string[];
  readonly jobs: number;
  readonly succeeded: number;
  readonly failed: number;
  readonly podSeconds: number;
  /** The newest Job (by creation): its spec is the one a patch applies to. */
  readonly newest: { readonly createdAt: string; readonly job: JobRef; readonly spec: PolicySpec };
  /** Failures by exit code, of pods that fell to the default handling (no rule matched, or Count), not disrupted. */
  readonly exitCodes: Readonly<Record<string, FailureTally>>;
  /** Counted failures of disrupted pods (`DisruptionTarget`). */
  readonly disruptions: FailureTally;
  /** Succeeded Jobs: the most failures a success needed (all, without disruptions), most restarts (OnFailure). */
  readonly successNeeds: { readonly failed: number; readonly failedWithoutDisruptions: number; readonly restarts: number };
  /** Indexed: the most failures one index needed before it succeeded. */
  readonly perIndexNeeds: { readonly failed: number; readonly failedWithoutDisruptions: number };
  /** Failed Jobs: the most failures one counted. */
  readonly mostFailures: number;
  /** Seconds from start to success, one per succeeded Job (unsorted). */
  readonly successSeconds: readonly number[];
  /** The longest run of any Job, with the Job. */
  readonly longestRun: { readonly seconds: number; readonly job: JobRef } | undefined;
  /** Leader/worker Jobs whose leader succeeded while workers ran. */
  readonly leader: { readonly jobs: number; readonly withWorkersTerminated: number; readonly workerSecondsAfter: number; readonly examples: readonly Example[] };
}

const NO_FAILURES: FailureTally = { failures: 0, jobs: 0, retrySucceeded: 0, podSeconds: 0, containers: {}, examples: [] };

/** A family's evidence from one Job. */
export function jobEvidence(facts: JobFacts): FamilyEvidence {
  const family = familyOf(facts.job);
  const exitCodes: Record<string, FailureTally> = {};
  let disruptions = NO_FAILURES;
  for (const failure of facts.failures) {
    const example = { job: facts.ref, pod: failure.pod };
    const one = (container?: string): FailureTally => ({
      failures: 1,
      jobs: 1,
      retrySucceeded: failure.retrySucceeded ? 1 : 0,
      podSeconds: failure.podSeconds,
      containers: container ? { [container]: 1 } : {},
      examples: [example],
    });
    if (failure.disruption) {
      if (failure.counted) disruptions = addFailures(disruptions, one(), false);
      continue;
    }
    if (!failure.exit || !handledByDefault(failure.action)) continue;
    const code = String(failure.exit.code);
    exitCodes[code] = addFailures(exitCodes[code] ?? NO_FAILURES, one(failure.exit.container), false);
  }
  const succeeded = facts.outcome === 'Succeeded';
  return {
    id: familyId(family),
    family,
    clusters: [facts.ref.cluster],
    jobs: 1,
    succeeded: succeeded ? 1 : 0,
    failed: succeeded ? 0 : 1,
    podSeconds: facts.podSeconds,
    newest: { createdAt: facts.createdAt, job: facts.ref, spec: facts.spec },
    exitCodes,
    disruptions,
    successNeeds: facts.success ?? { failed: 0, failedWithoutDisruptions: 0, restarts: 0 },
    perIndexNeeds: facts.perIndex ?? { failed: 0, failedWithoutDisruptions: 0 },
    mostFailures: succeeded ? 0 : facts.failedCount,
    successSeconds: succeeded ? [facts.runSeconds] : [],
    longestRun: { seconds: facts.runSeconds, job: facts.ref },
    leader: facts.leader
      ? { jobs: 1, withWorkersTerminated: facts.leader.workersTerminated > 0 ? 1 : 0, workerSecondsAfter: facts.leader.workerSecondsAfter, examples: [{ job: facts.ref }] }
      : { jobs: 0, withWorkersTerminated: 0, workerSecondsAfter: 0, examples: [] },
  };
}

/** Evidence of pages as one: families by id, each family's counts added. */
export function mergeEvidence(pages: readonly (readonly FamilyEvidence[])[]): FamilyEvidence[] {
  const byId = new Map<string, FamilyEvidence>();
  for (const page of pages) {
    for (const evidence of page) {
      const known = byId.get(evidence.id);
      byId.set(evidence.id, known ? mergeFamily(known, evidence) : evidence);
    }
  }
  return [...byId.values()].sort((a, b) => compare(a.id, b.id));
}

export function mergeFamily(a: FamilyEvidence, b: FamilyEvidence): FamilyEvidence {
  const codes: Record<string, FailureTally> = { ...a.exitCodes };
  for (const [code, tally] of Object.entries(b.exitCodes)) codes[code] = codes[code] ? addFailures(codes[code], tally, true) : tally;
  const newer = b.newest.createdAt > a.newest.createdAt || (b.newest.createdAt === a.newest.createdAt && jobKey(b.newest.job) > jobKey(a.newest.job));
  return {
    id: a.id,
    family: a.family,
    clusters: [...new Set([...a.clusters, ...b.clusters])].sort(compare),
    jobs: a.jobs + b.jobs,
    succeeded: a.succeeded + b.succeeded,
    failed: a.failed + b.failed,
    podSeconds: a.podSeconds + b.podSeconds,
    newest: newer ? b.newest : a.newest,
    exitCodes: codes,
    disruptions: addFailures(a.disruptions, b.disruptions, true),
    successNeeds: {
      failed: Math.max(a.successNeeds.failed, b.successNeeds.failed),
      failedWithoutDisruptions: Math.max(a.successNeeds.failedWithoutDisruptions, b.successNeeds.failedWithoutDisruptions),
      restarts: Math.max(a.successNeeds.restarts, b.successNeeds.restarts),
    },
    perIndexNeeds: {
      failed: Math.max(a.perIndexNeeds.failed, b.perIndexNeeds.failed),
      failedWithoutDisruptions: Math.max(a.perIndexNeeds.failedWithoutDisruptions, b.perIndexNeeds.failedWithoutDisruptions),
    },
    mostFailures: Math.max(a.mostFailures, b.mostFailures),
    successSeconds: [...a.successSeconds, ...b.successSeconds],
    longestRun: longer(a.longestRun, b.longestRun),
    leader: {
      jobs: a.leader.jobs + b.leader.jobs,
      withWorkersTerminated: a.leader.withWorkersTerminated + b.leader.withWorkersTerminated,
      workerSecondsAfter: a.leader.workerSecondsAfter + b.leader.workerSecondsAfter,
      examples: firstExamples(a.leader.examples, b.leader.examples),
    },
  };
}

/** Two tallies as one; `separateJobs` false when both come from the same Job (its jobs count once). */
function addFailures(a: FailureTally, b: FailureTally, separateJobs: boolean): FailureTally {
  const containers: Record<string, number> = { ...a.containers };
  for (const [name, count] of Object.entries(b.containers)) containers[name] = (containers[name] ?? 0) + count;
  return {
    failures: a.failures + b.failures,
    jobs: separateJobs || a.jobs === 0 ? a.jobs + b.jobs : a.jobs,
    retrySucceeded: a.retrySucceeded + b.retrySucceeded,
    podSeconds: a.podSeconds + b.podSeconds,
    containers,
    examples: firstExamples(a.examples, b.examples),
  };
}

function longer(a: FamilyEvidence['longestRun'], b: FamilyEvidence['longestRun']): FamilyEvidence['longestRun'] {
  if (!a || !b) return a ?? b;
  if (a.seconds !== b.seconds) return a.seconds > b.seconds ? a : b;
  return jobKey(a.job) <= jobKey(b.job) ? a : b;
}

const exampleKey = (e: Example): string => `${jobKey(e.job)}/${e.pod ?? ''}`;

/** The first EXAMPLES examples by Job and pod name, one per Job. */
function firstExamples(a: readonly Example[], b: readonly Example[]): Example[] {
  const byJob = new Map<string, Example>();
  for (const example of [...a, ...b].sort((x, y) => compare(exampleKey(x), exampleKey(y)))) {
    const key = jobKey(example.job);
    if (!byJob.has(key)) byJob.set(key, example);
  }
  return [...byJob.values()].slice(0, EXAMPLES);
}

export const jobKey = (job: JobRef): string => `${job.namespace}/${job.name}/${job.cluster}/${job.uid}`;
export const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
