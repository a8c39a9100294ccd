import { indexed } from './indexed-status.ts';
import { counts, has, SETTLE, Story, template } from './story.ts';

const ELASTIC = 'TestElasticIndexedJob';
const elasticSpec = () => ({ parallelism: 3, completions: 3, completionMode: 'Indexed', template: template() });
const scale = (n: number) => (spec: Record<string, unknown>) => {
  spec['completions'] = n;
  spec['parallelism'] = n;
};

function elastic(slug: string, name: string, description: string): [Story, string[]] {
  const s = new Story({ slug: `elastic-indexed__${slug}`, test: ELASTIC, case: name, description, spec: elasticSpec() });
  s.tick().after(1);
  return [s, s.created([0, 1, 2])];
}

function scaleUp(): Story {
  const [s] = elastic('scale-up', 'scale up', 'Completions 3 -> 4 (with parallelism): index 3 is created; all four succeed.');
  s.after(1).updateJob(scale(4)).after(1).created([3]);
  s.after(1);
  for (const i of [0, 1, 2, 3]) s.finishIndex(i, 'Succeeded');
  s.tick().expect({ status: indexed({ active: 0, succeeded: 4 }, '0-3', null), conditionsInclude: [has('Complete')] });
  return s;
}

function scaleDown(): Story {
  const [s] = elastic('scale-down', 'scale down', 'Index 1 succeeds and index 2 fails (replaced); scaling to 1 drops both from the Job: the earlier failure still counts, the success no longer does.');
  s.after(1).finishIndex(1, 'Succeeded').finishIndex(2, 'Failed').tick().after(SETTLE).tick().after(1).created([2]);
  s.expect({ status: indexed({ active: 2, succeeded: 1, failed: 1 }, '1', null) });
  const replacement = s.active(2)[0] as string;
  s.after(1).updateJob(scale(1)).after(1).gone(replacement);
  s.after(1).finishIndex(0, 'Succeeded').tick();
  s.expect({ status: indexed({ active: 0, succeeded: 1, failed: 1 }, '0', null), conditionsInclude: [has('Complete')] });
  return s;
}

function downAndUp(): Story {
  const [s] = elastic('scale-down-then-up', 'index finishes successfully, scale down, scale up', 'Index 2 succeeds; scaling to 2 drops it from completedIndexes; scaling back to 3 runs index 2 again.');
  s.after(1).finishIndex(2, 'Succeeded').tick().expect({ status: indexed({ active: 2, succeeded: 1 }, '2', null) });
  s.after(1).updateJob(scale(2)).expect({ status: indexed({ active: 2, succeeded: 0 }, '', null) });
  s.after(1).updateJob(scale(3)).after(1).created([2]);
  s.after(1);
  for (const i of [0, 1, 2]) s.finishIndex(i, 'Succeeded');
  s.tick().expect({ status: indexed({ active: 0, succeeded: 3 }, '0-2', null), conditionsInclude: [has('Complete')] });
  return s;
}

function toZero(): Story {
  const [s, pods] = elastic('scale-down-to-zero', 'scale down to 0, verify that the job succeeds', 'Completions 3 -> 0: every pod is deleted uncounted and the Job completes.');
  s.after(1).updateJob(scale(0)).after(1);
  for (const name of pods) s.gone(name);
  s.expect({ status: indexed({ active: 0, succeeded: 0 }, '', null), conditionsInclude: [has('Complete')] });
  return s;
}

function suspendOnUpdate(): Story {
  const s = new Story({ slug: 'suspend__suspend-running-job', test: 'TestSuspendJob', case: 'feature=false,create=false,update=true', description: 'Suspending a running Job deletes its pods and adds Suspended=True.', spec: { parallelism: 2, completions: 4, suspend: false, template: template() } });
  s.tick().after(1);
  const pods = s.created(2);
  s.expect({ status: counts({ active: 2 }), conditionsExclude: [{ type: 'Suspended' }] });
  s.after(1).updateJob((spec) => (spec['suspend'] = true)).after(1);
  for (const name of pods) s.gone(name);
  s.expect({ status: counts({ active: 0 }), conditionsInclude: [has('Suspended', 'JobSuspended')] });
  return s;
}

function resumeOnUpdate(): Story {
  const s = new Story({ slug: 'suspend__resume-suspended-job', test: 'TestSuspendJob', case: 'feature=false,create=true,update=false', description: 'A Job created suspended has no pods and Suspended=True; resuming it creates its pods and flips Suspended to False.', spec: { parallelism: 2, completions: 4, suspend: true, template: template() } });
  s.tick().expect({ status: counts({ active: 0 }), conditionsInclude: [has('Suspended', 'JobSuspended')] });
  s.after(1).updateJob((spec) => (spec['suspend'] = false)).after(1).created(2);
  s.expect({ status: counts({ active: 2 }), conditionsInclude: [{ type: 'Suspended', status: 'False', reason: 'JobResumed' }] });
  return s;
}

function createdSuspended(): Story {
  const s = new Story({ slug: 'suspend__created-suspended', test: 'TestSuspendJobControllerRestart', description: 'A Job created suspended gets no pod.', spec: { parallelism: 2, completions: 4, suspend: true, template: template() } });
  s.tick().expect({ podsCreated: 0, status: counts({ active: 0 }) });
  return s;
}

export const elasticAndSuspendStories = (): Story[] => [scaleUp(), scaleDown(), downAndUp(), toZero(), suspendOnUpdate(), resumeOnUpdate(), createdSuspended()];
