import type { PodFailurePolicyRule } from '../k8s/job.ts';
import { boundedText } from '../job/bounded-text.ts';
import type { PodConditionFact, TerminatedContainer } from '../job/pod-facts.ts';

export type PodFailureAction = 'FailJob' | 'FailIndex' | 'Ignore' | 'Count';

/** What the pod failure policy says about one failed pod. */
export interface PodFailureMatch {
  /** The action of the first matching rule; undefined when no rule matched (default handling). */
  readonly action: PodFailureAction | undefined;
  readonly ruleIndex?: number;
  /** KEP-4443 rule name, when the rule has one. */
  readonly ruleName?: string;
  /** Upstream's FailJob message, naming the container and exit code or the pod condition. */
  readonly message?: string;
  /** False only for Ignore: the failure does not count towards backoffLimit(PerIndex). */
  readonly countFailed: boolean;
  /** The evidence: the container whose exit code matched, or the matching pod condition. */
  readonly container?: TerminatedContainer;
  readonly conditionType?: string;
}

export interface FailedPodView {
  readonly namespace: string;
  readonly name: string;
  readonly terminated: readonly TerminatedContainer[];
  readonly conditions: readonly PodConditionFact[];
}

const NO_MATCH: PodFailureMatch = { action: undefined, countFailed: true };

/**
 * KEP-3329 `matchPodFailurePolicy`: rules in order, the first rule whose requirement matches
 * decides. Exit codes of regular containers are checked before init containers; an exit code
 * of 0 never matches; a rule with an unknown action is skipped. Only called for failed pods.
 */
export function matchPodFailurePolicy(
  rules: readonly PodFailurePolicyRule[] | undefined,
  pod: FailedPodView,
): PodFailureMatch {
  if (rules === undefined) return NO_MATCH;
  for (const [ruleIndex, rule] of rules.entries()) {
    const evidence = matchRequirement(rule, pod);
    if (evidence === undefined) continue;
    const action = rule.action;
    const named = rule.name === undefined ? {} : { ruleName: rule.name };
    switch (action) {
      case 'Ignore':
        return { action, ruleIndex, ...named, countFailed: false, ...evidence };
      case 'Count':
      case 'FailIndex':
        return { action, ruleIndex, ...named, countFailed: true, ...evidence };
      case 'FailJob':
        return {
          action,
          ruleIndex,
          ...named,
          countFailed: true,
          message: failJobMessage(pod, ruleIndex, evidence),
          ...evidence,
        };
      default:
        continue; // upstream: an unknown action falls through to the next rule
    }
  }
  return NO_MATCH;
}

type Evidence = { container: TerminatedContainer } | { conditionType: string };

/** Upstream's longest name: a qualified name (253-byte prefix, '/', 63-byte name) of a condition type. */
const MAX_NAME_BYTES = 317;

function matchRequirement(rule: PodFailurePolicyRule, pod: FailedPodView): Evidence | undefined {
  if (rule.onExitCodes) {
    const { containerName, operator, values } = rule.onExitCodes;
    const container = pod.terminated.find(
      (c) =>
        (containerName === undefined || containerName === c.name) &&
        c.exitCode !== 0 &&
        exitCodeMatches(operator, values, c.exitCode),
    );
    // Evidence is logged: a name is bounded as upstream bounds it (a DNS label, 63 bytes).
    return container ? { container: { ...container, name: boundedText(container.name, MAX_NAME_BYTES) } } : undefined;
  }
  if (rule.onPodConditions) {
    for (const condition of pod.conditions) {
      const matched = rule.onPodConditions.some(
        (p) => p.type === condition.type && (p.status ?? 'True') === condition.status,
      );
      if (matched) return { conditionType: boundedText(condition.type, MAX_NAME_BYTES) };
    }
  }
  return undefined;
}

function exitCodeMatches(operator: string | undefined, values: readonly number[], code: number) {
  if (operator === 'In') return values.includes(code);
  if (operator === 'NotIn') return !values.includes(code);
  return false;
}

function failJobMessage(pod: FailedPodView, ruleIndex: number, evidence: Evidence): string {
  if ('container' in evidence) {
    const { name, exitCode } = evidence.container;
    return `Container ${name} for pod ${pod.namespace}/${pod.name} failed with exit code ${exitCode} matching FailJob rule at index ${ruleIndex}`;
  }
  return `Pod ${pod.namespace}/${pod.name} has condition ${evidence.conditionType} matching FailJob rule at index ${ruleIndex}`;
}
