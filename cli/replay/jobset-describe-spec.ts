import type { PodFailurePolicyRule } from '../../shared/k8s/job.ts';
import type { DefaultedFailurePolicyRule, DefaultedJobSetSpec } from '../../shared/jobset/defaulting.ts';
import { field } from './table.ts';

/**
 * The JobSet spec as `kubectl describe jobset` would summarise it: replicated jobs (with each
 * template's pod failure policy, whose rule names make the Job failure reasons), and the
 * startup, failure and success policies after admission defaulting.
 */
export function describeJobSetSpec(spec: DefaultedJobSetSpec): string[] {
  const lines = ['Replicated Jobs:'];
  for (const rjob of spec.replicatedJobs) {
    const job = rjob.template.spec;
    const counts = [
      `parallelism ${job.parallelism ?? 1}`,
      `completions ${job.completions ?? '<unset>'}`,
      job.completionMode ?? 'NonIndexed',
      `backoffLimit ${job.backoffLimit ?? 6}`,
    ];
    lines.push(`  ${rjob.name}: ${rjob.replicas} replicas (group ${rjob.groupName}), ${counts.join(', ')}`);
    const rules = job.podFailurePolicy?.rules ?? [];
    for (const [index, rule] of rules.entries()) lines.push(`    pod failure policy ${podRuleText(rule, index)}`);
  }
  lines.push(field('Startup Policy', spec.startupPolicy.startupPolicyOrder));
  const policy = spec.failurePolicy;
  if (policy === undefined) {
    lines.push(field('Failure Policy', '<none> (the first Job failure fails the JobSet)'));
  } else {
    lines.push(field('Failure Policy', `maxRestarts ${policy.maxRestarts}, restartStrategy ${policy.restartStrategy}`));
    for (const [index, rule] of policy.rules.entries()) lines.push(`  ${jobSetRuleText(rule, index)}`);
  }
  const { operator, targetReplicatedJobs: targets } = spec.successPolicy;
  const over = targets.length > 0 ? `[${targets.join(', ')}]` : `[${spec.replicatedJobs.map((r) => r.name).join(', ')}] (all replicated jobs)`;
  lines.push(field('Success Policy', `${operator} over ${over}`));
  return lines;
}

/** `rule 1 "failurePolicyRule1": RestartJobSet on reasons [PodFailurePolicy_ExitCode3] in [simulations]`. */
function jobSetRuleText(rule: DefaultedFailurePolicyRule, index: number): string {
  const on: string[] = [];
  if (rule.onJobFailureReasons.length > 0) on.push(`reasons [${rule.onJobFailureReasons.join(', ')}]`);
  if (rule.onJobFailureMessagePatterns.length > 0) on.push(`messages matching [${rule.onJobFailureMessagePatterns.join(', ')}]`);
  const when = on.length === 0 ? 'any Job failure' : on.join(' and ');
  const where = rule.targetReplicatedJobs.length === 0 ? '' : ` in [${rule.targetReplicatedJobs.join(', ')}]`;
  return `rule ${index} "${rule.name}": ${rule.action} on ${when}${where}`;
}

/** `rule 0 "ExitCode2": FailJob on exit code of main In [2]`. */
function podRuleText(rule: PodFailurePolicyRule, index: number): string {
  const name = rule.name === undefined ? '' : ` "${rule.name}"`;
  const exit = rule.onExitCodes;
  const on = exit
    ? `exit code of ${exit.containerName ?? 'any container'} ${exit.operator ?? ''} [${exit.values.join(',')}]`
    : `pod condition ${(rule.onPodConditions ?? []).map((c) => `${c.type}=${c.status ?? 'True'}`).join(' or ')}`;
  return `rule ${index}${name}: ${rule.action ?? '<no action>'} on ${on}`;
}
