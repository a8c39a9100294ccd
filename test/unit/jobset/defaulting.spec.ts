import { describe, expect, it } from 'vitest';
import { defaultJobSet, JobSetSchema } from '../../../shared/jobset/index.ts';

const parse = (spec: Record<string, unknown>) =>
  JobSetSchema.parse({ metadata: { name: 'js', namespace: 'default' }, spec });

const minimal = parse({ replicatedJobs: [{ name: 'workers', template: { spec: {} } }], failurePolicy: { rules: [{ action: 'FailJobSet' }, { action: 'RestartJobSet', name: 'mine' }] } });

describe('defaultJobSet', () => {
  const { spec } = defaultJobSet(minimal);

  it.each([
    { name: 'success policy is All over every replicated job', got: spec.successPolicy, want: { operator: 'All', targetReplicatedJobs: [] } },
    { name: 'startup policy is AnyOrder', got: spec.startupPolicy, want: { startupPolicyOrder: 'AnyOrder' } },
    { name: 'unnamed rules are named failurePolicyRule<index>', got: spec.failurePolicy?.rules.map((r) => r.name), want: ['failurePolicyRule0', 'mine'] },
    { name: 'restart strategy is Recreate and maxRestarts 0', got: [spec.failurePolicy?.restartStrategy, spec.failurePolicy?.maxRestarts], want: ['Recreate', 0] },
    { name: 'completion mode is Indexed', got: spec.replicatedJobs[0]?.template.spec.completionMode, want: 'Indexed' },
    { name: 'pod restart policy is OnFailure', got: spec.replicatedJobs[0]?.template.spec.template.spec.restartPolicy, want: 'OnFailure' },
    { name: 'replicas is 1 and groupName default', got: [spec.replicatedJobs[0]?.replicas, spec.replicatedJobs[0]?.groupName], want: [1, 'default'] },
    { name: 'DNS hostnames are on', got: spec.network, want: { enableDNSHostnames: true, publishNotReadyAddresses: true } },
    { name: 'suspend is false', got: spec.suspend, want: false },
  ])('$name', ({ got, want }) => {
    expect(got).toEqual(want);
  });

  it('leaves a missing failure policy missing, since nil fails on the first Job failure', () => {
    expect(defaultJobSet(parse({ replicatedJobs: [] })).spec.failurePolicy).toBeUndefined();
  });

  it('keeps values that are set', () => {
    const set = defaultJobSet(
      parse({
        replicatedJobs: [{ name: 'w', replicas: 3, template: { spec: { completionMode: 'NonIndexed', template: { spec: { restartPolicy: 'Never' } } } } }],
        startupPolicy: { startupPolicyOrder: 'InOrder' },
        failurePolicy: { maxRestarts: 4, restartStrategy: 'BlockingRecreate' },
      }),
    ).spec;
    expect([set.replicatedJobs[0]?.template.spec.completionMode, set.replicatedJobs[0]?.template.spec.template.spec.restartPolicy]).toEqual(['NonIndexed', 'Never']);
    expect([set.startupPolicy.startupPolicyOrder, set.failurePolicy?.maxRestarts, set.failurePolicy?.restartStrategy]).toEqual(['InOrder', 4, 'BlockingRecreate']);
  });
});
