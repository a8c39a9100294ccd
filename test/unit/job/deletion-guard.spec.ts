import { describe, expect, it } from 'vitest';
import { deletionRefusal, readsJobPods, type LiveDeletionJob, type LivePod } from '../../../shared/job/index.ts';

// Issue 21: the forwarder's last word on a TerminatePod (shared/job/deletion-guard.ts). Given the
// live Job and pods, when a TerminatePod of a cause arrives, then it deletes or is refused, why.

const job = (spec: Partial<LiveDeletionJob> = {}): LiveDeletionJob => ({ parallelism: 2, completions: 4, suspended: false, indexed: false, ...spec });
const running = (index?: number): LivePod => ({ index, terminal: false, succeeded: false, deleting: false, tracked: true });
const succeeded = (index?: number): LivePod => ({ index, terminal: true, succeeded: true, deleting: false, tracked: true });
const deleting = (index?: number): LivePod => ({ index, terminal: false, succeeded: false, deleting: true, tracked: true });

/** The guard's answer for the first of `pods`. */
const refusal = (cause: string, live: LiveDeletionJob, ...pods: LivePod[]) => deletionRefusal(cause, live, pods[0] as LivePod, pods);

describe('ExcessPods', () => {
  it('is refused when the live Job runs no more pods than its parallelism (a scale-down since undone)', () => {
    expect(refusal('ExcessPods', job({ parallelism: 2 }), running(), running())).toBe('not-excess');
  });

  it('deletes when more pods run than the live parallelism', () => {
    expect(refusal('ExcessPods', job({ parallelism: 1 }), running(), running())).toBeUndefined();
  });

  it('counts neither finished pods nor pods being deleted as running', () => {
    expect(refusal('ExcessPods', job({ parallelism: 1 }), running(), deleting(), succeeded())).toBe('not-excess');
  });

  it('deletes when more pods run than the completions left (upstream wantActive)', () => {
    expect(refusal('ExcessPods', job({ parallelism: 2, completions: 2 }), running(), running(), succeeded())).toBeUndefined();
  });

  it('counts an Indexed Job\'s completions by distinct succeeded indexes', () => {
    const indexed = job({ parallelism: 2, completions: 3, indexed: true });
    expect(refusal('ExcessPods', indexed, running(1), running(2), succeeded(0), succeeded(0))).toBe('not-excess');
    expect(refusal('ExcessPods', indexed, running(1), running(2), succeeded(0), succeeded(1))).toBeUndefined();
  });

  it('is refused for a work queue (no completions) once a pod succeeded: upstream deletes none then', () => {
    expect(refusal('ExcessPods', job({ parallelism: 1, completions: undefined }), running(), running(), succeeded())).toBe('not-excess');
    expect(refusal('ExcessPods', job({ parallelism: 1, completions: undefined }), running(), running())).toBeUndefined();
  });

  it('deletes when the live Job is suspended', () => {
    expect(refusal('ExcessPods', job({ suspended: true }), running())).toBeUndefined();
  });
});

describe('JobSuspended', () => {
  it('is refused when the live Job is not suspended (a resumption jobfold has not read)', () => {
    expect(refusal('JobSuspended', job(), running())).toBe('job-not-suspended');
  });

  it('deletes when the live Job is suspended', () => {
    expect(refusal('JobSuspended', job({ suspended: true }), running())).toBeUndefined();
  });
});

describe('InvalidIndex and DuplicateIndex', () => {
  it('an invalid index is refused when the live completions make it valid (an elastic Job scaled back up)', () => {
    expect(refusal('InvalidIndex', job({ completions: 4, indexed: true }), running(3))).toBe('index-valid');
    expect(refusal('InvalidIndex', job({ completions: 3, indexed: true }), running(3))).toBeUndefined();
    expect(refusal('InvalidIndex', job({ completions: 3, indexed: true }), running(Number.NaN))).toBeUndefined();
  });

  it('a duplicate is refused when no other running pod has its index', () => {
    const indexed = job({ indexed: true });
    expect(refusal('DuplicateIndex', indexed, running(1), running(1))).toBeUndefined();
    expect(refusal('DuplicateIndex', indexed, running(1), deleting(1), succeeded(1), running(2))).toBe('index-not-duplicated');
  });
});

describe('causes that follow a decided outcome', () => {
  it.each(['JobFinishing', 'JobFinished', 'SomethingNewer'])('%s is never refused', (cause) => {
    expect(refusal(cause, job({ parallelism: 4 }), running())).toBeUndefined();
  });
});

// The forwarder lists the Job's pods only for the causes whose verdict reads them (readsJobPods):
// for the others, the verdict on the target alone is the verdict on every pod.
describe('the causes that read no other pod', () => {
  const jobs = [job(), job({ suspended: true }), job({ completions: 2, indexed: true }), job({ completions: undefined })];
  const targets = [running(0), running(1), running(3), running(undefined), deleting(0), succeeded(1)];
  const others = [[], [running(0)], [running(1), running(1), succeeded(0)], [deleting(3), running(undefined), running(2)]];
  it.each(['JobSuspended', 'InvalidIndex', 'JobFinishing', 'JobFinished'])('%s: the target alone gives the verdict every pod gives', (cause) => {
    expect(readsJobPods(cause)).toBe(false);
    for (const live of jobs) {
      for (const target of targets) {
        for (const rest of others) expect(deletionRefusal(cause, live, target, [target, ...rest])).toBe(deletionRefusal(cause, live, target, [target]));
      }
    }
  });

  it.each(['ExcessPods', 'DuplicateIndex'])('%s reads them: another pod can change its verdict', (cause) => {
    expect(readsJobPods(cause)).toBe(true);
    const live = job({ parallelism: 1, completions: 4, indexed: true });
    const target = running(1);
    expect(deletionRefusal(cause, live, target, [target])).not.toBe(deletionRefusal(cause, live, target, [target, running(1), running(1)]));
  });
});
