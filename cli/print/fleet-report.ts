import type { JobSetView, JobView } from '../../functions/query/views.ts';
import { plural } from '../../shared/read-model/explanation.ts';
import { field, indented, line, lines, section, type Block } from './text.ts';

// `npm start`'s report of what it decided, as a newcomer reads it: per Job or JobSet
// (cluster/namespace/name), where it ended and why (the explanation the API serves, in brief),
// its counts, and the commands its cluster's queue received, grouped.

/** A command as the cluster's queue received it: its detail type and detail. */
export interface ReceivedCommand {
  readonly detailType: string;
  readonly detail: Readonly<Record<string, unknown>>;
}

export type ReportedObject =
  | { readonly kind: 'Job'; readonly view: JobView; readonly delivered: readonly ReceivedCommand[] }
  | { readonly kind: 'JobSet'; readonly view: JobSetView; readonly delivered: readonly ReceivedCommand[] };

export function fleetReport(objects: readonly ReportedObject[]): Block[] {
  const jobs = objects.filter((o) => o.kind === 'Job').length;
  const jobSets = objects.length - jobs;
  const clusters = new Set(objects.map((o) => (o.kind === 'Job' ? o.view.job.clusterId : o.view.jobSet.clusterId)));
  const kinds = jobSets === 0 ? plural(jobs, 'Job') : `${plural(jobs, 'Job')} and ${plural(jobSets, 'JobSet')}`;
  return [line(`Decided: ${kinds} in ${plural(clusters.size, 'cluster')}`), ...objects.flatMap(objectBlocks)];
}

function objectBlocks(object: ReportedObject): Block[] {
  const { view, delivered } = object;
  const identity = object.kind === 'Job' ? object.view.job : object.view.jobSet;
  const conditions = view.status.conditions;
  const finished = conditions.find((c) => (c.type === 'Complete' || c.type === 'Completed' || c.type === 'Failed') && c.status === 'True');
  const outcome = finished ? `${finished.type} (${finished.reason})` : view.explanation.outcome;
  const counts = object.kind === 'Job' ? jobCounts(object.view) : jobSetCounts(object.view);
  const why = view.explanation.conditions.map((c) => c.sentence);
  return [
    line(''),
    line(`${identity.clusterId}/${identity.namespace}/${identity.name}  →  ${outcome}`),
    indented([
      field('Summary', view.explanation.summary),
      counts,
      ...(why.length === 0 ? [] : [section('Why', lines(why))]),
      ...(view.explanation.rejection.length === 0 ? [] : [section('Rejected', lines(view.explanation.rejection))]),
      section('Commands received', delivered.length === 0 ? [line('none')] : lines(commandGroups(delivered))),
    ]),
  ];
}

function jobCounts({ status }: JobView): Block {
  const indexes = [
    status.completedIndexes ? `completedIndexes "${status.completedIndexes}"` : '',
    status.failedIndexes ? `failedIndexes "${status.failedIndexes}"` : '',
  ].filter(Boolean).join(', ');
  return field('Pods', `active ${status.active}, succeeded ${status.succeeded}, failed ${status.failed}, terminating ${status.terminating}${indexes ? `; ${indexes}` : ''}`);
}

function jobSetCounts({ status, spec }: JobSetView): Block {
  const max = spec?.failurePolicy ? ` of maxRestarts ${spec.failurePolicy.maxRestarts}` : '';
  const jobs = status.replicatedJobsStatus.reduce((sum, r) => ({ active: sum.active + r.active, succeeded: sum.succeeded + r.succeeded, failed: sum.failed + r.failed }), { active: 0, succeeded: 0, failed: 0 });
  return field('Jobs', `active ${jobs.active}, succeeded ${jobs.succeeded}, failed ${jobs.failed}; restarts ${status.restarts} (${status.restartsCountTowardsMax} counted${max})`);
}

/** Grouped by type and why: `Pod Termination Requested ×3 (JobFinishing, SuccessPolicy): a, b, c`. */
function commandGroups(commands: readonly ReceivedCommand[]): string[] {
  const groups = new Map<string, string[]>();
  for (const command of commands) {
    const { cause, reason, podName, jobName, index } = command.detail;
    const why = [cause, reason].filter((s) => typeof s === 'string' && s !== '').join(', ');
    const key = `${command.detailType}${why ? ` (${why})` : ''}`;
    const target = typeof podName === 'string' ? podName : typeof index === 'number' ? `index ${index}` : typeof jobName === 'string' && command.detail['jobSetUid'] !== undefined ? jobName : '';
    groups.set(key, [...(groups.get(key) ?? []), target]);
  }
  return [...groups].map(([key, targets]) => {
    const names = targets.filter(Boolean);
    return `${key} ×${targets.length}${names.length > 0 ? `: ${names.join(', ')}` : ''}`;
  });
}
