import { describe, expect, it } from 'vitest';
import { defaultJobSetSpec } from '../../../shared/jobset/defaulting.ts';
import { matchDependsOn } from '../../../shared/jobset/depends-on.ts';
import type { ReplicatedJobStatus } from '../../../shared/jobset/replicated-jobs-status.ts';
import { JobSetSpecSchema } from '../../../shared/jobset/schemas.ts';
import { jobReady, jobSetObserved, jobSucceeded, at } from './support/builders.ts';
import { commandsOf, given } from './support/given.ts';

// TestDependencyReachedStatus (kubernetes-sigs/jobset pkg/controllers/depends_on_test.go), case by
// case: the trainer depends on the two initializers; `reached` is dependencyReachedStatus.
const MODEL = 'model-initializer';
const DATASET = 'dataset-initializer';

const spec = (replicas: number, status: string | undefined) =>
  defaultJobSetSpec(
    JobSetSpecSchema.parse({
      replicatedJobs: [
        { name: MODEL, replicas, template: { spec: {} } },
        { name: DATASET, replicas, template: { spec: {} } },
        {
          name: 'trainer-node',
          replicas: 1,
          template: { spec: {} },
          ...(status === undefined ? {} : { dependsOn: [{ name: MODEL, status }, { name: DATASET, status }] }),
        },
      ],
    }),
  );

const row = (name: string, ready: number, succeeded: number, failed: number, active = 0): ReplicatedJobStatus => ({
  name, ready, succeeded, failed, active, suspended: 0,
});

describe('matchDependsOn (TestDependencyReachedStatus)', () => {
  it.each([
    { name: "ReplicatedJob doesn't have any dependencies", replicas: 1, status: undefined, rows: [], reached: true },
    { name: 'status for ReplicatedJob is nil', replicas: 1, status: 'Complete', rows: [row('invalid', 0, 1, 0)], reached: false },
    { name: 'rJobStatuses is nil', replicas: 1, status: 'Complete', rows: [], reached: false },
    { name: 'depends on ReplicatedJob reaches complete status', replicas: 2, status: 'Complete', rows: [row(MODEL, 0, 2, 0), row(DATASET, 0, 2, 0)], reached: true },
    { name: "one depends on ReplicatedJob doesn't reach complete status", replicas: 2, status: 'Complete', rows: [row(MODEL, 1, 1, 0), row(DATASET, 0, 2, 0)], reached: false },
    { name: "two depends on ReplicatedJob doesn't reach complete status", replicas: 2, status: 'Complete', rows: [row(MODEL, 1, 1, 0), row(DATASET, 1, 1, 0)], reached: false },
    { name: 'depends on ReplicatedJob reaches ready status', replicas: 3, status: 'Ready', rows: [row(MODEL, 1, 1, 1), row(DATASET, 1, 1, 1)], reached: true },
    { name: "one depends on ReplicatedJob doesn't reach ready status", replicas: 3, status: 'Ready', rows: [row(MODEL, 2, 0, 0, 1), row(DATASET, 1, 1, 1)], reached: false },
    { name: "two depends on ReplicatedJobs doesn't reach ready status", replicas: 3, status: 'Ready', rows: [row(MODEL, 2, 0, 0, 1), row(DATASET, 2, 0, 0, 1)], reached: false },
  ])('$name', ({ replicas, status, rows, reached }) => {
    expect(matchDependsOn(spec(replicas, status), rows).held.has('trainer-node')).toBe(!reached);
  });

  it('names the first dependency not reached, with the counts the explanation prints', () => {
    const held = matchDependsOn(spec(3, 'Ready'), [row(MODEL, 2, 0, 0, 1), row(DATASET, 1, 1, 1)]).held;
    expect(held.get('trainer-node')).toEqual({ dependency: MODEL, status: 'Ready', reached: 2, needed: 3, finished: 0 });
  });
});

describe('Given workers that depend on the driver being Ready', () => {
  const jobSet = (suspend = false) =>
    jobSetObserved({
      replicatedJobs: [{ name: 'driver' }, { name: 'workers', replicas: 2, dependsOn: [{ name: 'driver', status: 'Ready' }] }],
      suspend,
    });

  it('when the JobSet is created, only the driver Job is', () => {
    expect(commandsOf(given(jobSet()).whenSettled({ now: at(0) }).commands)).toEqual(['CreateJob js-driver-0']);
  });

  it('when the driver is ready, the workers are created', () => {
    const outcome = given(jobSet(), jobReady('driver', 0, { seconds: 5 })).whenSettled({ now: at(5) });
    expect(commandsOf(outcome.commands)).toEqual(['CreateJob js-workers-0', 'CreateJob js-workers-1']);
  });

  it('when the driver completed without ever being seen ready, that counts as Ready too', () => {
    const outcome = given(jobSet(), jobSucceeded('driver', 0, { seconds: 5 })).whenSettled({ now: at(5) });
    expect(commandsOf(outcome.commands)).toEqual(['CreateJob js-workers-0', 'CreateJob js-workers-1']);
  });
});
