import { describe, expect, it } from 'vitest';
import type { CreateJob } from '../../../shared/jobset/index.ts';
import { jobSetObserved, at } from './support/builders.ts';
import { given } from './support/given.ts';

const COORDINATOR = 'jobset.sigs.k8s.io/coordinator';

const created = (spec: Record<string, unknown>): CreateJob[] =>
  given(jobSetObserved({ replicatedJobs: [{ name: 'driver' }, { name: 'workers', replicas: 2, completions: 4, parallelism: 4 }], ...spec }))
    .whenSettled({ now: at(0) })
    .commands.filter((c): c is CreateJob => c.type === 'CreateJob');

describe('Given a JobSet whose coordinator is pod 3 of the workers Job 1', () => {
  const coordinator = { replicatedJob: 'workers', jobIndex: 1, podIndex: 3 };

  it('when its Jobs are created, each Job and pod template carries the endpoint as label and annotation', () => {
    const jobs = created({ coordinator });
    expect(jobs).toHaveLength(3);
    for (const { job } of jobs) {
      for (const map of [job.metadata.labels, job.metadata.annotations, job.spec.template.metadata?.labels, job.spec.template.metadata?.annotations]) {
        expect(map?.[COORDINATOR]).toBe('js-workers-1-3.js');
      }
      expect(job.spec.template.spec.subdomain).toBe('js');
    }
  });

  it('when the network names a subdomain, the endpoint and the pods use it', () => {
    const [first] = created({ coordinator, network: { subdomain: 'training' } });
    expect(first?.job.metadata.labels[COORDINATOR]).toBe('js-workers-1-3.training');
    expect(first?.job.spec.template.spec.subdomain).toBe('training');
  });

  it('when DNS hostnames are off, the pods get no subdomain (the endpoint keeps upstream\'s form)', () => {
    const [first] = created({ coordinator, network: { enableDNSHostnames: false } });
    expect(first?.job.spec.template.spec.subdomain).toBeUndefined();
    expect(first?.job.metadata.annotations[COORDINATOR]).toBe('js-workers-1-3.js');
  });
});

describe('Given a JobSet without a coordinator', () => {
  it('when its Jobs are created, none carries the coordinator key', () => {
    for (const { job } of created({})) expect(job.metadata.labels[COORDINATOR]).toBeUndefined();
  });
});
