import type { PodFailurePolicyRule } from '../k8s/job.ts';
import type { FamilyEvidence, FailureTally } from './evidence.ts';
import type { PolicySpec } from './job-facts.ts';

// Mining: from a family's evidence, the policy changes worth checking (docs/advise.md, "Mining
// rules"). Each proposal is a merge patch of the Job's spec, built on the family's newest spec
// (a patch replaces lists whole, so its podFailurePolicy keeps the rules there), and the
// evidence it was mined from in sentences. Nothing here claims a saving: the exact what-if over
// the family's Jobs does (check.ts).

/** Evidence thresholds, one place. */
export const MINING = {
  /** An exit code becomes a FailJob/FailIndex rule only after this many failures, none retried with success. */
  minCodeFailures: 2,
  /** backoffLimit and backoffLimitPerIndex are lowered only from this many successful Jobs. */
  minSuccessesForLimits: 3,
  /** activeDeadlineSeconds needs this many successful runs: p99 of them × margin. */
  minRunsForDeadline: 5,
  deadlineMargin: 1.5,
  /** A success policy needs this many Jobs whose leader succeeded while workers ran. */
  minLeaderJobs: 2,
  /** The API's limit on podFailurePolicy rules. */
  maxRules: 20,
} as const;

/**
 * The kinds, most targeted first: a rule that names the failure it acts on before a limit that
 * acts on every failure, and one change before all of them together. Between proposals that
 * harm nothing and save the same, the more targeted ranks first.
 */
export const PROPOSAL_KINDS = [
  'fail-on-exit-codes',
  'ignore-disruptions',
  'success-policy',
  'backoff-limit-per-index',
  'backoff-limit',
  'active-deadline',
  'all-together',
] as const;

export type ProposalKind = (typeof PROPOSAL_KINDS)[number];

export interface Proposal {
  /** The family's id (`namespace/key`) and the proposal's kind: unique in one advice. */
  readonly family: string;
  readonly kind: ProposalKind;
  /** One line: what it changes. */
  readonly title: string;
  /** What the family's record showed that led to it. */
  readonly mined: readonly string[];
  /** The merge patch of the Job (`{ spec: … }`), rules named (KEP-4443). */
  readonly patch: { readonly spec: Readonly<Record<string, unknown>> };
}

const DEFAULT_BACKOFF_LIMIT = 6;

/** Every proposal for one family, in a fixed order (the ranking comes after the check). */
export function mine(evidence: FamilyEvidence): Proposal[] {
  const spec = evidence.newest.spec;
  const singles = [
    ignoreDisruptions(evidence, spec),
    failOnExitCodes(evidence, spec),
    backoffLimit(evidence, spec, false),
    backoffLimitPerIndex(evidence, spec, false),
    activeDeadline(evidence, spec),
    successPolicy(evidence, spec),
  ].filter((p): p is Proposal => p !== undefined);
  if (singles.length < 2) return singles;
  return [...singles, allTogether(evidence, spec, singles)];
}

const podFailurePolicyAllowed = (spec: PolicySpec): boolean => (spec.restartPolicy ?? 'Never') === 'Never';
const indexed = (spec: PolicySpec): boolean => spec.completionMode === 'Indexed';
const existingRules = (spec: PolicySpec): readonly PodFailurePolicyRule[] => spec.podFailurePolicy?.rules ?? [];

function proposal(evidence: FamilyEvidence, kind: ProposalKind, title: string, mined: string[], spec: Record<string, unknown>): Proposal {
  return { family: evidence.id, kind, title, mined, patch: { spec } };
}

// ── podFailurePolicy ─────────────────────────────────────────────────────────────────────────

function ignoreDisruptions(evidence: FamilyEvidence, spec: PolicySpec): Proposal | undefined {
  const d = evidence.disruptions;
  if (d.failures === 0 || !podFailurePolicyAllowed(spec)) return undefined;
  const rule = disruptionRule(spec);
  return proposal(
    evidence,
    'ignore-disruptions',
    `podFailurePolicy: Ignore pods with DisruptionTarget (rule ${rule.name})`,
    [`${d.failures} disrupted pod(s) in ${d.jobs} Job(s) counted as failures towards backoffLimit; a retry succeeded after ${d.retrySucceeded} of them${exampleText(d)}`],
    withRules(spec, [rule], []),
  );
}

/** Exit codes that failed at least minCodeFailures pods and never a retry that then succeeded. */
function fatalCodes(evidence: FamilyEvidence): [number, FailureTally][] {
  return Object.entries(evidence.exitCodes)
    .map(([code, tally]) => [Number(code), tally] as [number, FailureTally])
    .filter(([, t]) => t.failures >= MINING.minCodeFailures && t.retrySucceeded === 0)
    .sort(([a, x], [b, y]) => y.podSeconds - x.podSeconds || a - b);
}

function failOnExitCodes(evidence: FamilyEvidence, spec: PolicySpec): Proposal | undefined {
  if (!podFailurePolicyAllowed(spec)) return undefined;
  const room = MINING.maxRules - existingRules(spec).length - 1;
  const codes = fatalCodes(evidence).slice(0, Math.max(0, room));
  if (codes.length === 0) return undefined;
  const action = indexed(spec) && spec.backoffLimitPerIndex !== undefined ? 'FailIndex' : 'FailJob';
  const rules = exitCodeRules(spec, codes, action);
  const names = rules.map((r) => r.name).join(', ');
  return proposal(
    evidence,
    'fail-on-exit-codes',
    `podFailurePolicy: ${action} on exit code${codes.length > 1 ? 's' : ''} ${codes.map(([c]) => c).join(', ')} (rule${rules.length > 1 ? 's' : ''} ${names})`,
    codes.map(([code, t]) => `exit code ${code}${containerText(t)} failed ${t.failures} pod(s) in ${t.jobs} Job(s) and no retry after it ever succeeded${exampleText(t)}`),
    withRules(spec, [], rules),
  );
}

function exitCodeRules(spec: PolicySpec, codes: readonly [number, FailureTally][], action: 'FailJob' | 'FailIndex'): PodFailurePolicyRule[] {
  const taken = new Set(existingRules(spec).map((r) => r.name).filter((n): n is string => n !== undefined));
  return codes.map(([code, tally]) => {
    const containers = Object.keys(tally.containers);
    const container = containers.length === 1 && spec.containers.includes(containers[0] as string) ? containers[0] : undefined;
    return {
      name: freeName(`ExitCode${code}`, taken),
      action,
      onExitCodes: { ...(container ? { containerName: container } : {}), operator: 'In', values: [code] },
    };
  });
}

function disruptionRule(spec: PolicySpec): PodFailurePolicyRule {
  const taken = new Set(existingRules(spec).map((r) => r.name).filter((n): n is string => n !== undefined));
  return { name: freeName('Disruption', taken), action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] };
}

/**
 * The podFailurePolicy with `first` before the family's own rules and `last` after them. A
 * policy makes the API server default podReplacementPolicy to Failed and refuse any other, so
 * the patch says Failed.
 */
function withRules(spec: PolicySpec, first: PodFailurePolicyRule[], last: PodFailurePolicyRule[]): Record<string, unknown> {
  return { podFailurePolicy: { rules: [...first, ...existingRules(spec), ...last] }, podReplacementPolicy: 'Failed' };
}

function freeName(wanted: string, taken: Set<string>): string {
  let name = wanted;
  for (let n = 2; taken.has(name); n++) name = `${wanted}x${n}`;
  taken.add(name);
  return name;
}

// ── backoff limits ───────────────────────────────────────────────────────────────────────────

/** What successes needed: failures counted (all, or without disruptions), and OnFailure restarts. */
function neededBackoffLimit(evidence: FamilyEvidence, spec: PolicySpec, withoutDisruptions: boolean): number {
  const needs = evidence.successNeeds;
  const failed = withoutDisruptions ? needs.failedWithoutDisruptions : needs.failed;
  // OnFailure: the Job fails once the running pods' restarts reach backoffLimit.
  return spec.restartPolicy === 'OnFailure' && needs.restarts > 0 ? Math.max(failed, needs.restarts + 1) : failed;
}

function backoffLimit(evidence: FamilyEvidence, spec: PolicySpec, withoutDisruptions: boolean): Proposal | undefined {
  if (evidence.succeeded < MINING.minSuccessesForLimits) return undefined;
  const current = spec.backoffLimit ?? DEFAULT_BACKOFF_LIMIT;
  const needed = neededBackoffLimit(evidence, spec, withoutDisruptions);
  if (needed >= current || evidence.mostFailures <= needed) return undefined;
  const what = withoutDisruptions ? 'failures other than disruptions' : 'counted failures';
  return proposal(
    evidence,
    'backoff-limit',
    `backoffLimit: ${needed} (from ${current})`,
    [`${evidence.succeeded} successful Job(s) needed at most ${needed} ${what}; failed Jobs went on to ${evidence.mostFailures}`],
    { backoffLimit: needed },
  );
}

function backoffLimitPerIndex(evidence: FamilyEvidence, spec: PolicySpec, withoutDisruptions: boolean): Proposal | undefined {
  if (!indexed(spec) || evidence.succeeded < MINING.minSuccessesForLimits) return undefined;
  const needed = withoutDisruptions ? evidence.perIndexNeeds.failedWithoutDisruptions : evidence.perIndexNeeds.failed;
  const current = spec.backoffLimitPerIndex;
  if (current !== undefined && needed >= current) return undefined;
  if (current === undefined && evidence.mostFailures <= needed) return undefined;
  return proposal(
    evidence,
    'backoff-limit-per-index',
    `backoffLimitPerIndex: ${needed}${current === undefined ? '' : ` (from ${current})`}`,
    [`no index of ${evidence.succeeded} successful Job(s) needed more than ${needed} retr${needed === 1 ? 'y' : 'ies'}${current === undefined ? `; failed Jobs counted up to ${evidence.mostFailures} failures` : ''}`],
    { backoffLimitPerIndex: needed },
  );
}

// ── activeDeadlineSeconds ────────────────────────────────────────────────────────────────────

function activeDeadline(evidence: FamilyEvidence, spec: PolicySpec): Proposal | undefined {
  const runs = [...evidence.successSeconds].sort((a, b) => a - b);
  if (runs.length < MINING.minRunsForDeadline || !evidence.longestRun) return undefined;
  const p99 = runs[Math.ceil(0.99 * runs.length) - 1] as number;
  const deadline = roundUp(Math.max(1, Math.ceil(p99 * MINING.deadlineMargin)));
  const current = spec.activeDeadlineSeconds;
  if ((current !== undefined && current <= deadline) || evidence.longestRun.seconds <= deadline) return undefined;
  const longest = evidence.longestRun;
  return proposal(
    evidence,
    'active-deadline',
    `activeDeadlineSeconds: ${deadline}${current === undefined ? '' : ` (from ${current})`}`,
    [
      `${runs.length} successful run(s) took ${duration(runs[0] as number)} to ${duration(runs.at(-1) as number)}, p99 ${duration(p99)}; × ${MINING.deadlineMargin} = ${duration(deadline)}`,
      `the longest run, ${longest.job.cluster}/${longest.job.namespace}/${longest.job.name}, took ${duration(longest.seconds)}`,
    ],
    { activeDeadlineSeconds: deadline },
  );
}

/** Up to whole seconds under a minute, 10 s under 10 minutes, minutes under 2 hours, else 5 minutes. */
function roundUp(seconds: number): number {
  const step = seconds < 60 ? 1 : seconds < 600 ? 10 : seconds < 7200 ? 60 : 300;
  return Math.ceil(seconds / step) * step;
}

export function duration(seconds: number): string {
  if (seconds < 120) return `${round1(seconds)}s`;
  if (seconds < 7200) return `${round1(seconds / 60)}m`;
  return `${round1(seconds / 3600)}h`;
}

const round1 = (n: number): number => Math.round(n * 10) / 10;

// ── successPolicy ────────────────────────────────────────────────────────────────────────────

function successPolicy(evidence: FamilyEvidence, spec: PolicySpec): Proposal | undefined {
  const leader = evidence.leader;
  if (!indexed(spec) || spec.successPolicy || (spec.completions ?? 0) < 2) return undefined;
  if (leader.jobs < MINING.minLeaderJobs || leader.withWorkersTerminated === 0) return undefined;
  return proposal(
    evidence,
    'success-policy',
    'successPolicy: succeeded when the leader (index 0) succeeds',
    [`in ${leader.jobs} Job(s) the leader (index 0) succeeded while workers ran on for ${duration(leader.workerSecondsAfter)} of pod time in all; in ${leader.withWorkersTerminated} the workers were then terminated${exampleText(leader)}`],
    { successPolicy: { rules: [{ succeededIndexes: '0' }] } },
  );
}

// ── all together ─────────────────────────────────────────────────────────────────────────────

/** Every change at once, with the backoff limits counted without disruptions when those are ignored. */
function allTogether(evidence: FamilyEvidence, spec: PolicySpec, singles: readonly Proposal[]): Proposal {
  const has = (kind: ProposalKind) => singles.some((p) => p.kind === kind);
  const ignoring = has('ignore-disruptions');
  const parts: Record<string, unknown>[] = [];
  if (ignoring || has('fail-on-exit-codes')) {
    const action = indexed(spec) && spec.backoffLimitPerIndex !== undefined ? 'FailIndex' : 'FailJob';
    const codes = has('fail-on-exit-codes') ? fatalCodes(evidence).slice(0, Math.max(0, MINING.maxRules - existingRules(spec).length - 1)) : [];
    parts.push(withRules(spec, ignoring ? [disruptionRule(spec)] : [], exitCodeRules(spec, codes, action)));
  }
  const limit = backoffLimit(evidence, spec, ignoring);
  if (limit) parts.push(limit.patch.spec);
  const perIndex = backoffLimitPerIndex(evidence, spec, ignoring);
  if (perIndex) parts.push(perIndex.patch.spec);
  for (const kind of ['active-deadline', 'success-policy'] as const) {
    const single = singles.find((p) => p.kind === kind);
    if (single) parts.push(single.patch.spec);
  }
  const patch = Object.assign({}, ...parts) as Record<string, unknown>;
  const changes = Object.keys(patch).filter((k) => k !== 'podReplacementPolicy');
  return proposal(evidence, 'all-together', `all of the above together (${changes.join(', ')})`, [
    ignoring && (limit || perIndex) ? 'the backoff limits counted without the disruptions the Ignore rule takes out' : 'the proposals above, in one patch',
  ], patch);
}

// ── words ────────────────────────────────────────────────────────────────────────────────────

function containerText(tally: FailureTally): string {
  const names = Object.keys(tally.containers);
  return names.length === 1 ? ` (container ${names[0]})` : '';
}

function exampleText(tally: { readonly examples: FailureTally['examples'] }): string {
  if (tally.examples.length === 0) return '';
  return `; e.g. ${tally.examples.map((e) => `${e.job.cluster}/${e.job.namespace}/${e.job.name}${e.pod ? ` pod ${e.pod}` : ''}`).join(', ')}`;
}
