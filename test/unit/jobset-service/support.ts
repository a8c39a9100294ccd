import { readFileSync } from 'node:fs';

// What the JobSet service tests share: the seed-002 JobSet and its child Jobs' pods as a
// cluster reports them.

export const SEED_002_FIXTURE = JSON.parse(
  readFileSync(new URL('../../fixtures/jobset/seed-002__story-2-exit-code-2-fails-jobset.json', import.meta.url), 'utf8'),
) as { jobset: { metadata: Record<string, string>; spec: Record<string, unknown> } };

const T0 = Date.parse('2026-01-01T00:00:00Z');
/** The time `seconds` after 2026-01-01T00:00:00Z. */
export const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

/** The one pod (index 0) of a child Job, in `phase`; terminated with `exitCode` when given. */
export function childPod(job: { metadata: { name: string; uid: string } }, phase: string, exitCode?: number) {
  return {
    metadata: {
      name: `${job.metadata.name}-0-abcde`,
      namespace: 'default',
      uid: `${job.metadata.uid}-pod`,
      creationTimestamp: at(2),
      annotations: { 'batch.kubernetes.io/job-completion-index': '0' },
      finalizers: ['batch.kubernetes.io/job-tracking'],
      ownerReferences: [{ kind: 'Job', name: job.metadata.name, uid: job.metadata.uid, controller: true }],
    },
    status: {
      phase,
      containerStatuses: [
        { name: 'main', restartCount: 0, state: exitCode === undefined ? {} : { terminated: { exitCode, finishedAt: at(9) } } },
      ],
    },
  };
}
