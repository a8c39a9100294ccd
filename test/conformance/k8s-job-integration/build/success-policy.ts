import { indexed } from './indexed-status.ts';
import { FAILURE_COUNT, has, Story, template } from './story.ts';

const TEST = 'TestSuccessPolicy';
const main = () => template({ containerName: 'main-container' });

function onePodOneIndex(slug: string, name: string, description: string, successPolicy: unknown, conditions: Record<string, string>[], notes?: string): Story {
  const spec = { parallelism: 1, completions: 1, completionMode: 'Indexed', template: main(), ...(successPolicy ? { successPolicy } : {}) };
  const s = new Story({ slug: `success-policy__${slug}`, test: TEST, case: name, description, spec, ...(notes ? { notes } : {}) });
  s.tick().after(1).created([0]);
  s.expect({ status: indexed({ active: 1 }, '', null) });
  s.after(1).finishIndex(0, 'Succeeded').tick();
  s.expect({ status: indexed({ active: 0, succeeded: 1 }, '0', null), conditionsInclude: conditions });
  return s;
}

/** Index 1 succeeds while index 0 is still pending: the policy is met, index 0's pod is deleted. */
function pendingIndexRemains(slug: string, name: string, rule: Record<string, unknown>): Story {
  const spec = { parallelism: 2, completions: 2, completionMode: 'Indexed', template: main(), successPolicy: { rules: [rule] } };
  const s = new Story({ slug: `success-policy__${slug}`, test: TEST, case: name, description: 'The success policy is met with index 0 still pending: SuccessCriteriaMet, the pending pod is deleted (not counted as failed), then Complete.', spec });
  s.tick().after(1);
  const [zero] = s.created([0, 1]) as [string, string];
  s.expect({ status: indexed({ active: 2 }, '', null) });
  s.after(1).update(zero, () => undefined).tick().expect({ status: indexed({ active: 2 }, '', null) });
  s.after(1).finishIndex(1, 'Succeeded').tick();
  s.expect({ status: indexed({ active: 0, succeeded: 1, terminating: 1 }, '1', null) });
  s.after(1).gone(zero).expect({ conditionsInclude: [has('SuccessCriteriaMet', 'SuccessPolicy'), has('Complete', 'SuccessPolicy')] });
  return s;
}

function failedIndexBeatsPolicy(): Story {
  const spec = {
    parallelism: 2,
    completions: 2,
    completionMode: 'Indexed',
    backoffLimitPerIndex: 0,
    template: main(),
    successPolicy: { rules: [{ succeededCount: 1 }] },
  };
  const s = new Story({
    slug: 'success-policy__failed-index-beats-success-policy',
    test: TEST,
    case: 'job with successPolicy and backoffLimitPerIndex; job has a Failed condition if job meets backoffLimitPerIndex',
    description: 'Index 0 fails for good (backoffLimitPerIndex 0); index 1 then succeeds, which meets succeededCount 1, but the failed index is checked first: the Job fails.',
    spec,
  });
  s.tick().after(1).created([0, 1], () => ({ [FAILURE_COUNT]: '0' }));
  s.expect({ status: indexed({ active: 2 }, '', '') });
  s.after(1).finishIndex(0, 'Failed').tick().expect({ status: indexed({ active: 1, failed: 1 }, '', '0') });
  s.after(1).finishIndex(1, 'Succeeded').tick();
  s.expect({ status: indexed({ active: 0, failed: 1, succeeded: 1 }, '1', '0'), conditionsInclude: [has('Failed')] });
  return s;
}

/** TestSuccessPolicy_ReEnabling: succeededCount 3 of 5; the gate toggling is moot with the feature GA. */
function reEnabling(): Story {
  const spec = { parallelism: 5, completions: 5, completionMode: 'Indexed', template: template(), successPolicy: { rules: [{ succeededCount: 3 }] } };
  const s = new Story({
    slug: 'success-policy__succeeded-count-three-of-five',
    test: 'TestSuccessPolicy_ReEnabling',
    description: 'Indexes 0, 1, 2 succeed one by one; the third meets succeededCount 3: the two remaining pods are deleted, SuccessCriteriaMet then Complete.',
    spec,
    notes: 'Upstream disables the JobSuccessPolicy gate between the first and second success and re-enables it before the third; with the feature GA the gate is always on, and every assertion of the test holds as written.',
  });
  s.tick().after(1);
  const pods = s.created([0, 1, 2, 3, 4]);
  s.expect({ status: indexed({ active: 5 }, '', null) });
  s.after(1).finishIndex(0, 'Succeeded').tick().expect({ status: indexed({ active: 4, succeeded: 1 }, '0', null) });
  s.after(1).finishIndex(1, 'Succeeded').tick().expect({ status: indexed({ active: 3, succeeded: 2 }, '0,1', null) });
  s.after(1).finishIndex(2, 'Succeeded').tick().expect({ status: indexed({ active: 0, succeeded: 3, terminating: 2 }, '0-2', null) });
  s.after(1).gone(pods[3] as string).gone(pods[4] as string);
  s.expect({ conditionsInclude: [has('SuccessCriteriaMet', 'SuccessPolicy'), has('Complete', 'SuccessPolicy')] });
  return s;
}

export const successPolicyStories = (): Story[] => [
  onePodOneIndex('all-indexes-succeeded', 'all indexes succeeded; JobSuccessPolicy is enabled', 'succeededIndexes "0" of a one-index Job: SuccessCriteriaMet and Complete with reason SuccessPolicy.', { rules: [{ succeededIndexes: '0' }] }, [has('SuccessCriteriaMet', 'SuccessPolicy'), has('Complete', 'SuccessPolicy')]),
  onePodOneIndex(
    'all-indexes-succeeded-gate-named-off',
    'all indexes succeeded; JobSuccessPolicy is disabled',
    'The same Job run by the case that disables the gate: upstream asserts only Complete, which holds with the feature GA.',
    { rules: [{ succeededIndexes: '0' }] },
    [has('Complete')],
    'Upstream runs this case with the JobSuccessPolicy gate off and asserts the Complete condition and the counts only; all of it holds with the feature GA.',
  ),
  onePodOneIndex('no-success-policy-completions-reached', 'job without successPolicy; incremented the jobs_finished_total metric with CompletionsReached reason', 'Without a success policy the Job completes by completions, reason CompletionsReached (upstream checks it through the jobs_finished_total metric).', undefined, [has('SuccessCriteriaMet', 'CompletionsReached'), has('Complete', 'CompletionsReached')]),
  pendingIndexRemains('succeeded-indexes-met-with-pending-index', 'job with successPolicy with succeededIndexes; job has SuccessCriteriaMet and Complete conditions even if some indexes remain pending', { succeededIndexes: '1' }),
  pendingIndexRemains('succeeded-count-met-with-pending-index', 'job with successPolicy with succeededCount; job has SuccessCriteriaMet and Complete conditions even if some indexes remain pending', { succeededCount: 1 }),
  failedIndexBeatsPolicy(),
  reEnabling(),
];
