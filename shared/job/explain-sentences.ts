import type { JobCondition } from './conditions.ts';
import { POD_FAILURE_POLICY_REASON_PREFIX, Reason } from './constants.ts';
import type { Evidence, PodRefData } from './decisions.ts';
import type { JobState } from './state.ts';
import { formatTime } from './explain-evidence.ts';
import { activeDeadlineAt } from '../policies/active-deadline.ts';

/** Evidence as logged, or rebuilt from the state (then the tipping event may be unknown). */
export type ConditionEvidence = Omit<Evidence, 'tippedBy'> & { readonly tippedBy?: number };

/** What a condition's sentence is built from. */
export interface SentenceFacts {
  readonly state: JobState;
  readonly condition: JobCondition;
  readonly evidence: ConditionEvidence | undefined;
  /** For Complete/Failed: log position of the interim condition's decision. */
  readonly interimSeq: number | undefined;
  /** Pods terminated because of this condition (lingering or suspended pods). */
  readonly lingering: number;
}

/**
 * One plain sentence per condition: `<type>: <reason> — <what happened>, event #<log position>`,
 * e.g. `FailureTarget: PodFailurePolicy_ExitCode2 — rule 0 "ExitCode2" matched container main of
 * pod default/worker-3 (index 3) exit code 2, event #7; 4 lingering pods terminated`.
 * Falls back to the condition's message where the evidence does not say more.
 */
export function conditionSentence(facts: SentenceFacts): string {
  const { condition, evidence, lingering } = facts;
  const what = (evidence && describe(facts, evidence)) ?? (condition.message || condition.status);
  const tipped = evidence?.tippedBy === undefined ? '' : `, event #${evidence.tippedBy}`;
  const after = lingering === 0 ? '' : `; ${plural(lingering, condition.type === 'Suspended' ? 'active pod' : 'lingering pod')} terminated`;
  const reason = condition.reason === '' ? '' : `${condition.reason} — `;
  return `${condition.type}: ${reason}${what}${tipped}${after}`;
}

function describe(facts: SentenceFacts, evidence: ConditionEvidence): string | undefined {
  const { condition } = facts;
  if (evidence.follows !== undefined) return terminal(facts, evidence.follows);
  if (condition.type === 'Suspended') {
    return condition.status === 'True' ? 'spec.suspend is true' : 'spec.suspend was set to false; startTime reset';
  }
  const reason = condition.reason;
  if (reason === Reason.PodFailurePolicy || reason.startsWith(POD_FAILURE_POLICY_REASON_PREFIX)) {
    return failJob(facts, evidence);
  }
  switch (reason) {
    case Reason.SuccessPolicy:
      return successPolicy(facts, evidence);
    case Reason.CompletionsReached:
      return completionsReached(evidence);
    case Reason.BackoffLimitExceeded:
      return backoffLimit(evidence);
    case Reason.DeadlineExceeded:
      return deadline(evidence);
    case Reason.MaxFailedIndexesExceeded: {
      const { failedIndexes, limit } = evidence;
      if (failedIndexes === undefined || limit === undefined) return undefined;
      const count = countIndexes(failedIndexes);
      return `${count} failed ${count === 1 ? 'index' : 'indexes'} "${failedIndexes}" ${count === 1 ? 'exceeds' : 'exceed'} maxFailedIndexes ${limit}`;
    }
    case Reason.FailedIndexes: {
      const { failedIndexes } = evidence;
      if (failedIndexes === undefined) return undefined;
      const noun = countIndexes(failedIndexes) === 1 ? 'index' : 'indexes';
      const perIndex = facts.state.settings?.backoffLimitPerIndex ?? '?';
      return `every index finished and ${noun} "${failedIndexes}" failed (backoffLimitPerIndex ${perIndex})`;
    }
    default:
      return undefined;
  }
}

function terminal(facts: SentenceFacts, follows: string): string {
  const { interimSeq, evidence } = facts;
  const tipped = evidence?.tippedBy;
  const sameSync = interimSeq !== undefined && tipped !== undefined && tipped < interimSeq;
  if (sameSync) return `no pod was left terminating when ${follows} was set`;
  const decided = interimSeq === undefined ? '' : ` (event #${interimSeq})`;
  return `follows ${follows}${decided} once no pod was left terminating`;
}

function successPolicy(facts: SentenceFacts, evidence: ConditionEvidence): string | undefined {
  const rule = evidence.rule;
  if (rule?.policy !== 'successPolicy') return undefined;
  const spec = facts.state.spec?.successPolicy?.rules[rule.index];
  const text = spec === undefined ? '' : ` (${successRuleText(spec)})`;
  const pod = evidence.pods?.[0];
  return `rule ${rule.index}${text} met${pod ? ` when ${podText(pod)} succeeded` : ''}`;
}

/** `succeededIndexes "0"`, `succeededCount 5 of "1-9"`, `succeededCount 5`. */
export function successRuleText(rule: { readonly succeededIndexes?: string; readonly succeededCount?: number }): string {
  const { succeededIndexes, succeededCount } = rule;
  if (succeededCount === undefined) return `succeededIndexes "${succeededIndexes ?? ''}"`;
  return succeededIndexes === undefined
    ? `succeededCount ${succeededCount}`
    : `succeededCount ${succeededCount} of "${succeededIndexes}"`;
}

function completionsReached(evidence: ConditionEvidence): string | undefined {
  const pod = evidence.pods?.[0];
  const last = pod ? `; the last was ${podText(pod)}` : '';
  if (evidence.limit === undefined) return `a pod succeeded and no pod is active (work queue)${last}`;
  return `${evidence.succeeded ?? '?'} of ${evidence.limit} completions succeeded${last}`;
}

function failJob(facts: SentenceFacts, evidence: ConditionEvidence): string | undefined {
  const rule = evidence.rule;
  const ref = evidence.pods?.[0];
  if (rule?.policy !== 'podFailurePolicy' || ref === undefined) return undefined;
  const namespace = facts.state.pods.get(ref.uid)?.namespace ?? facts.state.identity?.namespace ?? 'default';
  const pod = podText(ref, namespace);
  const name = rule.name === undefined ? '' : ` "${rule.name}"`;
  const matched = evidence.container
    ? `container ${evidence.container.name} of ${pod} exit code ${evidence.container.exitCode}`
    : `pod condition ${evidence.podCondition ?? '?'} of ${pod}`;
  return `rule ${rule.index}${name} matched ${matched}`;
}

function backoffLimit(evidence: ConditionEvidence): string | undefined {
  const { failed, limit } = evidence;
  if (failed === undefined || limit === undefined) return undefined;
  if (failed > limit) return `${plural(failed, 'failed pod')} ${failed === 1 ? 'exceeds' : 'exceed'} backoffLimit ${limit}`;
  return `container restarts of running pods reached backoffLimit ${limit} (restartPolicy OnFailure)`;
}

function deadline(evidence: ConditionEvidence): string | undefined {
  const { startTime, activeDeadlineSeconds } = evidence;
  if (startTime === undefined || activeDeadlineSeconds === undefined) return undefined;
  const at = activeDeadlineAt(activeDeadlineSeconds, Date.parse(startTime));
  const passed = at === undefined ? 'never (past year 9999)' : formatTime(at);
  return `started ${startTime} with activeDeadlineSeconds ${activeDeadlineSeconds}: the deadline passed at ${passed}`;
}

function podText(pod: PodRefData, namespace?: string): string {
  const name = namespace === undefined ? pod.name : `${namespace}/${pod.name}`;
  return pod.index !== undefined && pod.index >= 0 ? `pod ${name} (index ${pod.index})` : `pod ${name}`;
}

const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** The number of indexes in an interval string such as "1,3-5". */
function countIndexes(text: string): number {
  let count = 0;
  for (const part of text.split(',')) {
    const [first, last] = part.split('-').map(Number);
    if (first === undefined || Number.isNaN(first)) continue;
    count += last === undefined || Number.isNaN(last) ? 1 : last - first + 1;
  }
  return count;
}
