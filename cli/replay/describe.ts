import { jobSetSpecView, jobSpecView, refusedUpdateView } from '../../functions/query/views.ts';
import { jobStatus, type Explanation } from '../../shared/job/index.ts';
import { jobSetStatus, type JobSetExplanation } from '../../shared/jobset/index.ts';
import type { JobDescription } from '../print/job.ts';
import type { JobSetDescription } from '../print/jobset.ts';
import type { JobSetReplayRun, ReplayRun, ReplaySource } from './replay-run.ts';

// A replay described as the service describes a stored object (cli/print prints both): the
// replayed state read through the query API's views (functions/query/views.ts), the commands as
// the replay computed them, and the explanation.

const UNKNOWN = '<unknown>';

/** The replayed Job as `kubectl describe job` would show it, with its commands and explanation. */
export function jobReplayDescription(run: ReplayRun, explanation: Explanation, source: ReplaySource): JobDescription {
  const { state } = run;
  const identity = state.identity;
  const what = source.kind === 'scenario' ? `scenario ${source.id}` : 'JSONL';
  return {
    kind: 'Job',
    view: {
      job: { clusterId: identity?.clusterId ?? UNKNOWN, namespace: identity?.namespace ?? UNKNOWN, name: identity?.name ?? UNKNOWN, uid: identity?.uid || UNKNOWN },
      spec: jobSpecView(state),
      status: jobStatus(state),
      refusedUpdate: refusedUpdateView(state),
      stalled: null,
    },
    origin: ['Replayed', `${source.file} (${what}): ${run.syncs.length} reconciles, log of ${run.log.length} events`],
    commands: { from: 'replay', syncs: run.syncs },
    explanation,
  };
}

/**
 * The replayed JobSet as `kubectl describe jobset` would show it, plus its child Jobs (with why
 * each failed), the commands jobfold issued and the explanation of each condition and decision.
 */
export function jobSetReplayDescription(run: JobSetReplayRun, explanation: JobSetExplanation, source: ReplaySource): JobSetDescription {
  const { state } = run;
  const metadata = state.jobSet?.metadata;
  const what = source.kind === 'jobset-scenario' ? `JobSet scenario ${source.id}` : 'JobSet trace';
  const nothing = explanation.rejection.length === 0 && run.log.length === 0;
  return {
    kind: 'JobSet',
    jobSet: { clusterId: run.clusterId, namespace: metadata?.namespace ?? 'default', name: metadata?.name ?? UNKNOWN, uid: metadata?.uid ?? UNKNOWN },
    origin: ['Replayed', `${source.file} (${what}): ${run.reconciles} reconciles, JobSet log of ${run.log.length} events`],
    spec: state.jobSet === undefined ? null : jobSetSpecView(state.jobSet.spec),
    status: jobSetStatus(state),
    childJobs: {
      title: source.kind === 'jobset-trace' ? 'Child Jobs (every restart attempt, as their own logs tell)' : 'Child Jobs',
      jobs: run.childJobs,
    },
    commands: { from: 'replay', issued: run.commands },
    explanation: nothing ? undefined : explanation,
  };
}
