import type { PodFailurePolicyRule } from '../k8s/job.ts';
import { boundedText } from '../k8s/bounded-text.ts';
import { Reason } from '../k8s/job-controller.ts';
import type { Evidence, PodRefData } from './evidence.ts';
import type { FeatureGates } from '../k8s/feature-gates.ts';

// The pod failure policy (KEP-3329; KEP-4443 names its rules): which rule a failed pod matches,
// and everything the rule's action means to the Job. The fold asks this module, never the
// action's name: how a matched pod counts (counting.ts), whether it fails its index, whether it
// fails the Job and with which reason, message and evidence (finish-condition.ts), and the
// explanation's sentence (explain.ts), and validation which actions it supports and which need
// backoffLimitPerIndex. A new action is one entry of ACTIONS, plus a check in
// shared/job/validation/pod-failure-policy.ts if it needs yet another field of the spec.

/** What a matched rule's action does, as upstream's Job controller reads `matchPodFailurePolicy`. */
interface ActionMeaning {
  /**
   * Upstream `countFailed`: the failure counts towards backoffLimit and backoffLimitPerIndex.
   * When false the pod is accounted for as ignored (its index's ignored-failure count and the
   * recreation backoff still grow) and `status.failed` stays.
   */
  readonly countFailed: boolean;
  /** Upstream `isIndexFailed`: the pod fails its index at once (backoffLimitPerIndex). */
  readonly failsIndex: boolean;
  /**
   * Upstream `getFailJobMessage`: the pod fails the Job (`syncJob` check 3: FailureTarget, then
   * Failed, reason `PodFailurePolicy`); this builds the condition's message.
   */
  readonly failsJob?: (pod: FailedPodView, ruleIndex: number, evidence: MatchEvidence) => string;
}

const ACTIONS = {
  Count: { countFailed: true, failsIndex: false },
  FailIndex: { countFailed: true, failsIndex: true },
  FailJob: { countFailed: true, failsIndex: false, failsJob: failJobMessage },
  Ignore: { countFailed: false, failsIndex: false },
} as const satisfies Readonly<Record<string, ActionMeaning>>;

export type PodFailureAction = keyof typeof ACTIONS;

/** Upstream `supportedPodFailurePolicyActions`, sorted as `sets.List` returns them. */
export const SUPPORTED_POD_FAILURE_POLICY_ACTIONS: readonly string[] = Object.keys(ACTIONS).sort();

const meaningOf = (action: string | undefined): ActionMeaning | undefined =>
  action !== undefined && Object.hasOwn(ACTIONS, action) ? (ACTIONS as Readonly<Record<string, ActionMeaning>>)[action] : undefined;

/** What the pod failure policy says about one failed pod. Kept in snapshots as it is. */
export interface PodFailureMatch {
  /** The action of the first matching rule; undefined when no rule matched (default handling). */
  readonly action: PodFailureAction | undefined;
  readonly ruleIndex?: number;
  /** KEP-4443 rule name, when the rule has one. */
  readonly ruleName?: string;
  /** The message of the Job's failure, when the action fails the Job. */
  readonly message?: string;
  /** False when the failure does not count towards backoffLimit(PerIndex) (upstream `countFailed`). */
  readonly countFailed: boolean;
  /** The evidence: the container whose exit code matched, or the matching pod condition. */
  readonly container?: TerminatedContainer;
  readonly conditionType?: string;
}

/** A terminated container, as the pod failure policy sees it. */
export interface TerminatedContainer {
  readonly name: string;
  readonly exitCode: number;
}

/** A pod condition, as the pod failure policy sees it. */
export interface PodConditionFact {
  readonly type: string;
  readonly status: string;
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
    const meaning = meaningOf(rule.action);
    if (meaning === undefined) continue; // upstream: an unknown action falls through to the next rule
    const message = meaning.failsJob?.(pod, ruleIndex, evidence);
    return {
      action: rule.action as PodFailureAction,
      ruleIndex,
      ...(rule.name === undefined ? {} : { ruleName: rule.name }),
      countFailed: meaning.countFailed,
      ...(message === undefined ? {} : { message }),
      ...evidence,
    };
  }
  return NO_MATCH;
}

/** Whether the pod's failure counts towards backoffLimit(PerIndex): unmatched pods count. */
export const countsFailure = (match: PodFailureMatch | undefined): boolean => match?.countFailed !== false;

/**
 * Whether a failure with this action (undefined: no rule matched) was handled as without a
 * policy: counted, failing neither its index nor the Job. The advice mines only such failures
 * for new rules (shared/advise/evidence.ts).
 */
export function handledByDefault(action: string | undefined): boolean {
  if (action === undefined) return true;
  const meaning = meaningOf(action);
  return meaning !== undefined && meaning.countFailed && !meaning.failsIndex && meaning.failsJob === undefined;
}

/**
 * Whether a supported action fails the pod's index (FailIndex): validation asks it, since such an
 * action means nothing without backoffLimitPerIndex (upstream `validatePodFailurePolicyRule`).
 */
export const actionFailsIndex = (action: string): boolean => meaningOf(action)?.failsIndex === true;

/** Upstream `isIndexFailed`'s first test: the match fails the pod's index whatever its count. */
export const failsIndex = (match: PodFailureMatch | undefined): boolean => meaningOf(match?.action)?.failsIndex === true;

// ---- The Job failed by the policy --------------------------------------------------------------

/** The first failed pod, in listing order, whose match fails the Job (upstream `getFailJobMessage`). */
export interface PolicyFailure {
  readonly podSeq: number;
  readonly uid: string;
  readonly podName: string;
  readonly ruleIndex: number;
  readonly ruleName: string | undefined;
  readonly message: string;
  /** Log position of the pod's observation that made it. */
  readonly tippedBy: number;
}

interface MatchedPod {
  readonly seq: number;
  readonly uid: string;
  readonly name: string;
  readonly lastSeq: number;
}

/** The Job's failure a failed pod's match makes, when its action fails the Job. */
export function policyFailureOf(pod: MatchedPod, match: PodFailureMatch): PolicyFailure | undefined {
  if (meaningOf(match.action)?.failsJob === undefined) return undefined;
  return {
    podSeq: pod.seq,
    uid: pod.uid,
    podName: pod.name,
    ruleIndex: match.ruleIndex ?? 0,
    ruleName: match.ruleName,
    message: match.message ?? '',
    tippedBy: pod.lastSeq,
  };
}

/** The pod a policy failure names, as the state still holds it (undefined once forgotten). */
interface FailedPod {
  readonly index: number;
  readonly failureMatch: PodFailureMatch | undefined;
}

/** What a policy failure's decision logs: the rule, the pod, and the container or pod condition matched. */
export function policyFailureEvidence(failure: PolicyFailure, pod: FailedPod | undefined): Evidence {
  const match = pod?.failureMatch;
  return {
    tippedBy: failure.tippedBy,
    rule: { policy: 'podFailurePolicy', index: failure.ruleIndex, name: failure.ruleName },
    pods: [{ uid: failure.uid, name: failure.podName, index: pod?.index, seq: failure.podSeq }],
    container: match?.container,
    podCondition: match?.conditionType,
  };
}

/** The FailureTarget (then Failed) condition a policy failure sets, and its evidence. */
export function policyFailureCondition(failure: PolicyFailure, pod: FailedPod | undefined, gates: FeatureGates) {
  return { reason: policyFailureReason(failure, gates), message: failure.message, evidence: policyFailureEvidence(failure, pod) };
}

/** KEP-4443 reason prefix: `PodFailurePolicy_<name>`, or `PodFailurePolicy_<index>` for an unnamed rule. */
export const POD_FAILURE_POLICY_REASON_PREFIX = 'PodFailurePolicy_';

/**
 * KEP-4443: the reason of the FailureTarget/Failed condition a policy failure sets.
 * Gate on: `PodFailurePolicy_<name>`, or `PodFailurePolicy_<index>` for an unnamed rule.
 * Gate off: upstream's plain `PodFailurePolicy` (a stored name is ignored).
 */
export function policyFailureReason(
  rule: { readonly ruleIndex?: number; readonly ruleName?: string },
  gates: FeatureGates,
): string {
  if (!gates.PodFailurePolicyName) return Reason.PodFailurePolicy;
  return POD_FAILURE_POLICY_REASON_PREFIX + (rule.ruleName ?? String(rule.ruleIndex ?? 0));
}

/** Whether a condition reason is one a policy failure sets (gate on or off). */
export const isPolicyFailureReason = (reason: string): boolean =>
  reason === Reason.PodFailurePolicy || reason.startsWith(POD_FAILURE_POLICY_REASON_PREFIX);

/**
 * The explanation's words for a policy failure's evidence, e.g. `rule 0 "ExitCode2" matched
 * container main of pod default/worker-3 (index 3) exit code 2`; undefined when the evidence
 * is not a policy failure's. `podText` words the pod as the rest of the explanation does.
 */
export function policyFailureSentence(
  evidence: Omit<Evidence, 'tippedBy'>,
  podText: (pod: PodRefData) => string,
): string | undefined {
  const rule = evidence.rule;
  const ref = evidence.pods?.[0];
  if (rule?.policy !== 'podFailurePolicy' || ref === undefined) return undefined;
  const pod = podText(ref);
  const name = rule.name === undefined ? '' : ` "${rule.name}"`;
  const matched = evidence.container
    ? `container ${evidence.container.name} of ${pod} exit code ${evidence.container.exitCode}`
    : `pod condition ${evidence.podCondition ?? '?'} of ${pod}`;
  return `rule ${rule.index}${name} matched ${matched}`;
}

// ---- Matching ----------------------------------------------------------------------------------

type MatchEvidence = { container: TerminatedContainer } | { conditionType: string };

/** Upstream's longest name: a qualified name (253-byte prefix, '/', 63-byte name) of a condition type. */
const MAX_NAME_BYTES = 317;

function matchRequirement(rule: PodFailurePolicyRule, pod: FailedPodView): MatchEvidence | undefined {
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

/** Upstream's FailJob message, naming the container and exit code or the pod condition. */
function failJobMessage(pod: FailedPodView, ruleIndex: number, evidence: MatchEvidence): string {
  if ('container' in evidence) {
    const { name, exitCode } = evidence.container;
    return `Container ${name} for pod ${pod.namespace}/${pod.name} failed with exit code ${exitCode} matching FailJob rule at index ${ruleIndex}`;
  }
  return `Pod ${pod.namespace}/${pod.name} has condition ${evidence.conditionType} matching FailJob rule at index ${ruleIndex}`;
}
