import { printable } from '../k8s/printable.ts';
import type { Explanation, TerminatedPod } from './explain.ts';

/**
 * The explanation as text, one fact per line:
 *   Outcome, Summary, Why (one sentence per condition), Terminated Pods (grouped by when and
 *   why), Rejected (validation errors). `indent` prefixes every line.
 */
export function formatExplanation(explanation: Explanation, indent = ''): string {
  const lines = [`Outcome:  ${explanation.outcome}`, `Summary:  ${explanation.summary}`];
  if (explanation.conditions.length > 0) {
    lines.push('Why (event #N = position in the Job\'s log):');
    for (const condition of explanation.conditions) lines.push(`  ${condition.sentence}`);
  }
  const groups = groupTerminations(explanation.terminatedPods);
  if (groups.length > 0) {
    lines.push('Terminated Pods:');
    for (const group of groups) lines.push(`  ${group}`);
  }
  const late = explanation.afterFinish;
  if (late !== undefined) {
    lines.push(
      `After the end: ${late.observations} observation(s) arrived after event #${late.finishedAt}, where the Job finished; they are logged and change nothing reported.`,
    );
  }
  if (explanation.rejection.length > 0) {
    lines.push('Rejected:');
    for (const message of explanation.rejection) lines.push(`  ${message}`);
  }
  // Names and messages come from clusters: escape control characters in every line.
  return lines.map((line) => indent + printable(line)).join('\n');
}

/** `2026-01-01T00:05:00Z JobFinishing (SuccessPolicy): mypod-1, mypod-2` per request. */
function groupTerminations(pods: readonly TerminatedPod[]): string[] {
  const groups = new Map<string, string[]>();
  for (const pod of pods) {
    const why = pod.cause === undefined ? 'requested' : `${pod.cause}${pod.reason ? ` (${pod.reason})` : ''}`;
    const key = `${pod.requestedAt} ${why}`;
    const names = groups.get(key) ?? [];
    names.push(pod.name);
    groups.set(key, names);
  }
  return [...groups].map(([key, names]) => `${key}: ${names.join(', ')}`);
}
