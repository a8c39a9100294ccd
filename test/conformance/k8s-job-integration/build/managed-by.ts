import { counts, Story, template } from './story.ts';

const TEST = 'TestManagedBy';
const CUSTOM = 'example.com/custom-job-controller';

function reconciled(slug: string, name: string, managedBy: string | undefined): Story {
  const s = new Story({
    slug: `managed-by__${slug}`,
    test: TEST,
    case: name,
    description: 'A Job the built-in controller reconciles: its pod is created.',
    spec: { template: template({ containerName: 'main-container' }), ...(managedBy ? { managedBy } : {}) },
  });
  s.tick().after(1).created(1);
  s.expect({ status: counts({ active: 1 }) });
  return s;
}

function skipped(slug: string, name: string, suspend: boolean): Story {
  const s = new Story({
    slug: `managed-by__${slug}`,
    test: TEST,
    case: name,
    description: 'A Job another controller manages is not reconciled: no pod, and the status stays empty.',
    spec: { suspend, template: template({ containerName: 'main-container' }), managedBy: CUSTOM },
    notes: 'Upstream compares the status with an empty JobStatus; ready and terminating (nil there) are not asserted.',
  });
  s.tick().expect({ podsCreated: 0, status: { active: 0, succeeded: 0, failed: 0, startTime: null, completionTime: null, completedIndexes: '', conditions: [] } });
  return s;
}

export const managedByStories = (): Story[] => [
  reconciled('without-managed-by', 'the Job controller reconciles jobs without the managedBy', undefined),
  reconciled('well-known-managed-by', 'the Job controller reconciles jobs with the well known value of the managedBy field', 'kubernetes.io/job-controller'),
  skipped('custom-managed-by-unsuspended', 'the Job controller does not reconcile an unsuspended with the custom value of managedBy', false),
  skipped('custom-managed-by-suspended', 'the Job controller does not reconcile a suspended with the custom value of managedBy', true),
];
