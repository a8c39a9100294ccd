import type { V1Job } from '@kubernetes/client-node';
import type { Outcome } from './apply-command.ts';
import type { JobSetCommand } from './command-message.ts';
import type { KubeOps } from './kube-ops.ts';

/** The prefix of the labels the JobSet controller stamps on its child Jobs. */
const JOBSET_LABEL_PREFIX = 'jobset.sigs.k8s.io/';

const done = (note: string): Outcome => ({ kind: 'done', note });

/**
 * Applies a command on a child Job of a JobSet. API errors are thrown and classified by the
 * caller (404 done, 400/422 poison, the rest transient).
 */
export async function applyJobSetCommand(command: JobSetCommand, kube: KubeOps): Promise<Outcome> {
  switch (command.type) {
    case 'CreateJob':
      return createJob(command, kube);
    case 'DeleteJob':
      return deleteJob(command, kube);
    case 'SuspendJob':
      return setSuspend(command, kube, true);
    case 'ResumeJob':
      return setSuspend(command, kube, false);
    case 'DeleteJobSet':
      return deleteJobSet(command, kube);
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

type CommandOf<T extends JobSetCommand['type']> = Extract<JobSetCommand, { type: T }>;

async function createJob(command: CommandOf<'CreateJob'>, kube: KubeOps): Promise<Outcome> {
  const { job } = command;
  if (job.metadata.name !== command.jobName || !ownedBy(job, command.jobSetUid)) {
    const message = `job ${job.metadata.name} is not ${command.jobName} owned by JobSet uid ${command.jobSetUid}`;
    return { kind: 'poison', reason: 'invalid-detail', message };
  }
  const body = { ...job, metadata: { ...job.metadata, namespace: command.namespace } } as V1Job;
  if ((await kube.createJob(command.namespace, body)) === 'created') return done('created');
  // AlreadyExists: this command's Job (a redelivery) or another one holding the name.
  const existing = await kube.readJob(command.namespace, command.jobName);
  if (!existing) return { kind: 'transient', error: `job ${command.jobName} existed, then vanished; create it again` };
  if (ownedBy(existing, command.jobSetUid) && sameJobSetLabels(existing.metadata?.labels, job.metadata.labels)) return done('already-exists');
  // Typically the previous restart attempt's Job, still being deleted in the foreground.
  return { kind: 'transient', error: `job ${command.namespace}/${command.jobName} exists and is not this command's (another JobSet or restart attempt)` };
}

async function deleteJob(command: CommandOf<'DeleteJob'>, kube: KubeOps): Promise<Outcome> {
  const job = await kube.readJob(command.namespace, command.jobName);
  if (!job) return done('job-gone');
  // A Job of the same name that another JobSet (or a recreated one) owns must live.
  if (!ownedBy(job, command.jobSetUid)) return done('job-replaced');
  if (job.metadata?.deletionTimestamp) return done('job-deleting');
  const result = await kube.deleteJob(command.namespace, command.jobName, job.metadata?.uid ?? '');
  return done(result === 'deleted' ? 'deleted' : result === 'not-found' ? 'job-gone' : 'job-replaced');
}

/**
 * The JobSet's ttlSecondsAfterFinished passed: DELETE it (foreground, so its Jobs go first) with
 * a uid precondition, so a JobSet recreated under the name lives. Gone or replaced is done.
 */
async function deleteJobSet(command: CommandOf<'DeleteJobSet'>, kube: KubeOps): Promise<Outcome> {
  const result = await kube.deleteJobSet(command.namespace, command.jobSetName, command.jobSetUid);
  return done(result === 'deleted' ? 'deleted' : result === 'not-found' ? 'jobset-gone' : 'jobset-replaced');
}

async function setSuspend(command: CommandOf<'SuspendJob' | 'ResumeJob'>, kube: KubeOps, suspend: boolean): Promise<Outcome> {
  const job = await kube.readJob(command.namespace, command.jobName);
  if (!job) return done('job-gone');
  if (!ownedBy(job, command.jobSetUid)) return done('job-replaced');
  if ((job.spec?.suspend ?? false) === suspend) return done(suspend ? 'already-suspended' : 'already-resumed');
  await kube.patchJobSuspend(command.namespace, command.jobName, suspend);
  return done(suspend ? 'suspended' : 'resumed');
}

function ownedBy(job: { metadata?: { ownerReferences?: ReadonlyArray<{ uid?: string }> } }, jobSetUid: string): boolean {
  return job.metadata?.ownerReferences?.some((ref) => ref.uid === jobSetUid) ?? false;
}

function sameJobSetLabels(actual: Readonly<Record<string, string>> | undefined, wanted: Readonly<Record<string, string>>): boolean {
  const stamped = Object.entries(wanted).filter(([key]) => key.startsWith(JOBSET_LABEL_PREFIX));
  return stamped.length > 0 && stamped.every(([key, value]) => actual?.[key] === value);
}
