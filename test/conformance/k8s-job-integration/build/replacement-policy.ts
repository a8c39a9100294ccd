import { BLOCK, counts, SETTLE, Story, template } from './story.ts';

const TEST = 'TestJobPodReplacementPolicy';

function spec(indexed: boolean, policy: string) {
  return { parallelism: 2, completions: 2, completionMode: indexed ? 'Indexed' : 'NonIndexed', podReplacementPolicy: policy, template: template({ finalizers: [BLOCK] }) };
}
const what = (indexed: boolean) => (indexed ? [0, 1] : 2);

/** Both pods are deleted (held by the test finalizer), then the test fails them. */
function terminatingOrFailed(indexed: boolean): Story {
  const s = new Story({
    slug: `pod-replacement-policy__terminating-or-failed-${indexed ? 'indexed' : 'non-indexed'}`,
    test: TEST,
    case: `feature flag true with ${indexed ? 'IndexedJob' : 'NonIndexedJob'}, TerminatingOrFailed policy, delete & fail pods, recreate terminating pods, and verify job status counters`,
    description: 'TerminatingOrFailed: deleted pods count as failed at once and are replaced while still terminating; failing them later changes no count.',
    spec: spec(indexed, 'TerminatingOrFailed'),
  });
  s.tick().after(1);
  const pods = s.created(what(indexed));
  s.after(1);
  for (const name of pods) s.markDeleted(name);
  s.tick().after(SETTLE).tick().after(1).created(what(indexed));
  s.expect({ status: counts({ active: 2, failed: 2, terminating: 2 }) });
  s.after(1);
  for (const name of pods) s.untracked(name).update(name, (p) => (p.phase = 'Failed'));
  s.tick().expect({ status: counts({ active: 2, failed: 2, terminating: 0 }) });
  return s;
}

function failedOnly(indexed: boolean): Story {
  const s = new Story({
    slug: `pod-replacement-policy__failed-${indexed ? 'indexed' : 'non-indexed'}`,
    test: TEST,
    case: indexed
      ? 'feature flag true, Failed policy, delete & fail pods, recreate failed pods, and verify job status counters'
      : 'feature flag true with NonIndexedJob, Failed policy, delete & fail pods, recreate failed pods, and verify job status counters',
    description: 'Failed: deleted pods are terminating, not active, not failed, and not replaced until they fail; then they are counted and replaced.',
    spec: spec(indexed, 'Failed'),
  });
  s.tick().after(1);
  const pods = s.created(what(indexed));
  s.after(1);
  for (const name of pods) s.markDeleted(name);
  s.tick().expect({ status: counts({ active: 0, failed: 0, terminating: 2 }) });
  s.after(1);
  for (const name of pods) s.update(name, (p) => (p.phase = 'Failed'));
  s.tick().after(SETTLE).tick().after(1).created(what(indexed));
  s.expect({ status: counts({ active: 2, failed: 2, terminating: 0 }) });
  return s;
}

export const replacementPolicyStories = (): Story[] => [terminatingOrFailed(true), terminatingOrFailed(false), failedOnly(true), failedOnly(false)];
