import { BLOCK, Story, template } from './story.ts';

const TEST = 'TestDelayTerminalPhaseCondition';
const cond = (type: string, reason: string) => ({ type, status: 'True', reason });

/** `validateJobStatus` compares the whole status except startTime, completionTime and messages. */
function whole(c: { active?: number; succeeded?: number; failed?: number; terminating: number; completedIndexes?: string }, conditions: unknown[]) {
  return {
    active: c.active ?? 0,
    succeeded: c.succeeded ?? 0,
    failed: c.failed ?? 0,
    ready: 0,
    terminating: c.terminating,
    completedIndexes: c.completedIndexes ?? '',
    failedIndexes: null,
    conditions,
  };
}

const notes = 'The pods carry the test finalizer fake.example.com/blockDeletion, so a deleted pod stays (terminating) until the test sets its phase. Upstream also runs this case with JobPodReplacementPolicy or JobManagedBy off (legacy: no interim condition, or terminating unreported); only the GA variant is translated.';

function backoffLimitExceeded(): Story {
  const s = new Story({
    slug: 'delay-terminal-condition__backoff-limit-exceeded',
    test: TEST,
    case: 'job backoff limit exceeded; JobPodReplacementPolicy enabled',
    description: 'backoffLimit 0 and one pod fails: FailureTarget at once, the other pod is deleted and counted as failed; Failed only after it has terminated.',
    spec: { parallelism: 2, completions: 2, backoffLimit: 0, template: template({ finalizers: [BLOCK], containerName: 'main-container' }) },
    notes,
  });
  s.tick().after(1);
  const [a, b] = s.created(2) as [string, string];
  s.after(1).finish(a, 'Failed').tick();
  s.after(1).untracked(b).markDeleted(b);
  s.expect({ status: whole({ failed: 2, terminating: 1 }, [cond('FailureTarget', 'BackoffLimitExceeded')]) });
  s.after(1).finish(b, 'Succeeded').tick();
  s.expect({ status: whole({ failed: 2, terminating: 0 }, [cond('FailureTarget', 'BackoffLimitExceeded'), cond('Failed', 'BackoffLimitExceeded')]) });
  return s;
}

function scaleDownToMeetCompletions(): Story {
  const s = new Story({
    slug: 'delay-terminal-condition__scale-down-to-meet-completions',
    test: TEST,
    case: 'job scale down to meet completions; JobPodReplacementPolicy and JobSuccessPolicy are enabled',
    description: 'Index 0 succeeds and the Job is scaled down to one completion: SuccessCriteriaMet (CompletionsReached), index 1 is deleted; Complete only after it has terminated.',
    spec: { parallelism: 2, completions: 2, completionMode: 'Indexed', template: template({ finalizers: [BLOCK], containerName: 'main-container' }) },
    notes: `${notes} The elastic scale-down is the test's Job update (parallelism and completions 2 -> 1).`,
  });
  s.tick().after(1);
  const [, one] = s.created([0, 1]) as [string, string];
  s.after(1).finishIndex(0, 'Succeeded').tick();
  s.after(1).updateJob((spec) => {
    spec['parallelism'] = 1;
    spec['completions'] = 1;
  });
  s.after(1).untracked(one).markDeleted(one);
  s.expect({ status: whole({ succeeded: 1, terminating: 1, completedIndexes: '0' }, [cond('SuccessCriteriaMet', 'CompletionsReached')]) });
  s.after(1).finish(one, 'Succeeded').tick();
  s.expect({
    status: whole({ succeeded: 1, terminating: 0, completedIndexes: '0' }, [cond('SuccessCriteriaMet', 'CompletionsReached'), cond('Complete', 'CompletionsReached')]),
  });
  return s;
}

export const delayTerminalStories = (): Story[] => [backoffLimitExceeded(), scaleDownToMeetCompletions()];
