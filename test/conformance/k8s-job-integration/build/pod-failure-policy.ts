import { counts, has, SETTLE, Story, template } from './story.ts';

const TEST = 'TestJobPodFailurePolicy';
const rules = [
  { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
  { action: 'Count', onExitCodes: { operator: 'In', values: [10] } },
  { action: 'FailJob', onExitCodes: { operator: 'In', values: [5, 6, 7] } },
];
const spec = { template: template({ containerName: 'main-container' }), podFailurePolicy: { rules } };

type Finish = Parameters<Story['finish']>[2];

/** One pod fails as the case says; then the Job fails, or the replacement succeeds and it completes. */
function policyCase(slug: string, name: string, description: string, finish: Finish, want: { active: number; failed: number; condition: 'Failed' | 'Complete' }, jobSpec: Record<string, unknown> = spec) {
  const s = new Story({ slug: `pod-failure-policy__${slug}`, test: TEST, case: name, description, spec: jobSpec });
  s.tick().after(1);
  const [pod] = s.created(1);
  s.expect({ status: counts({ active: 1 }) });
  s.after(1).finish(pod as string, 'Failed', finish).tick();
  if (want.condition === 'Failed') {
    s.expect({ status: counts(want), conditionsInclude: [has('Failed', 'PodFailurePolicy')] });
    return s;
  }
  s.after(SETTLE).tick().after(1);
  const [replacement] = s.created(1);
  s.expect({ status: counts(want) });
  s.after(1).finish(replacement as string, 'Succeeded').tick().expect({ conditionsInclude: [has('Complete')] });
  return s;
}

export const podFailurePolicyStories = (): Story[] => [
  policyCase('fail-job-on-exit-code', 'pod status matching the configured FailJob rule on exit codes; job terminated', 'Exit code 5 matches the FailJob rule: the Job fails with reason PodFailurePolicy and the pod is counted.', { exitCode: 5 }, { active: 0, failed: 1, condition: 'Failed' }),
  policyCase('fail-job-on-exit-code-controller-restart', 'pod status matching the configured FailJob rule on exit codes; with controller restart; job terminated', 'As the FailJob case, with the controller restarted after the pod failed: the fold keeps no memory outside the log, so the outcome is the same.', { exitCode: 5 }, { active: 0, failed: 1, condition: 'Failed' }),
  policyCase('ignore-on-pod-condition', 'pod status matching the configured Ignore rule on pod conditions; pod failure not counted', 'A DisruptionTarget failure matches the Ignore rule: not counted, the pod is replaced, and the Job completes when the replacement succeeds.', { conditions: [{ type: 'DisruptionTarget', status: 'True' }], noContainers: true }, { active: 1, failed: 0, condition: 'Complete' }),
  policyCase('count-on-exit-code', 'pod status matching the configured Count rule on exit codes; pod failure counted', 'Exit code 10 matches the Count rule: counted, replaced, and the Job completes.', { exitCode: 10 }, { active: 1, failed: 1, condition: 'Complete' }),
  policyCase('no-rule-matches', 'pod status non-matching any configured rule; pod failure counted', 'A failure with exit code 0 matches no rule: default handling, counted and replaced.', {}, { active: 1, failed: 1, condition: 'Complete' }),
  policyCase(
    'fail-job-on-negative-exit-code',
    'pod status matching the configured FailJob rule on a negative exit code - needed for Windows support',
    'A negative exit code (Windows) matches a FailJob rule listing it.',
    { exitCode: -1073741510 },
    { active: 0, failed: 1, condition: 'Failed' },
    {
      template: template({ containerName: 'main-container' }),
      podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [-1073741510, 137] } }] },
    },
  ),
  restartAfterFinalizerRemoved(),
];

/**
 * TestJobPodFailurePolicyWithFailedPodDeletedDuringControllerRestart: the controller records
 * FailureTarget and removes the failed pod's finalizer, stops; the pod is deleted (as PodGC
 * would); a new controller must still mark the Job Failed.
 */
function restartAfterFinalizerRemoved(): Story {
  const s = new Story({
    slug: 'pod-failure-policy__failed-pod-deleted-during-controller-restart',
    test: 'TestJobPodFailurePolicyWithFailedPodDeletedDuringControllerRestart',
    description: 'The pod that matched FailJob is deleted after its finalizer was removed and before Failed was written: the Job still ends Failed.',
    spec: {
      parallelism: 3,
      completions: 3,
      template: template({ containerName: 'main-container' }),
      podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [5] } }] },
    },
    notes: 'The other two pods are deleted by the controller when FailureTarget is added; they are unscheduled, so they go as soon as their finalizer is removed.',
  });
  s.tick().after(1);
  const [a, b, c] = s.created(3) as [string, string, string];
  s.expect({ status: counts({ active: 3 }) });
  s.after(1).finish(b, 'Failed', { exitCode: 5 }).tick();
  s.untracked(b).after(1).gone(b).markDeleted(a).markDeleted(c);
  s.after(1).gone(a).gone(c).expect({ conditionsInclude: [has('Failed', 'PodFailurePolicy')] });
  return s;
}
