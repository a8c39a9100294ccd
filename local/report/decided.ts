import { randomBytes } from 'node:crypto';
import { storedJobView } from '../../functions/query/stored-job-view.ts';
import { storedJobSetView } from '../../functions/query/jobsets/jobset-log-window.ts';
import type { JobSetView, JobView } from '../../functions/query/views.ts';
import type { EventStore, JobSummary, StreamId } from '../../shared/log/event-store.ts';
import type { PodArchive } from '../../shared/log/pod-archive.ts';
import type { FoldConfig } from '../../shared/job/index.ts';
import type { DeliveredEntry, Deliveries } from '../bus/bus-rules.ts';

/**
 * What was decided for one Job or JobSet: its view as the query API serves it (status, the
 * explanation in brief) and the commands its cluster's queue received.
 */
export type Decided =
  | { readonly kind: 'Job'; readonly view: JobView; readonly delivered: readonly DeliveredEntry[] }
  | { readonly kind: 'JobSet'; readonly view: JobSetView; readonly delivered: readonly DeliveredEntry[] };

const PAGE = 100;

/** Every Job, then every JobSet, of the fleet view, oldest first, read as the API reads them. */
export async function decidedObjects(store: EventStore & PodArchive, config: FoldConfig, deliveries: Deliveries): Promise<Decided[]> {
  const deps = { store, config, cursorKey: randomBytes(32) };
  const delivered = (summary: JobSummary, key: 'jobUid' | 'jobSetUid') =>
    deliveries.commandsFor(summary.clusterId).filter((command) => command.detail[key] === summary.uid);
  const streamOf = (summary: JobSummary): StreamId => ({ kind: summary.kind, clusterId: summary.clusterId, namespace: summary.namespace, uid: summary.uid });
  const jobs = await Promise.all((await fleet(store, 'Job')).map(async (summary): Promise<Decided> => (
    { kind: 'Job', view: await storedJobView(deps, summary, streamOf(summary)), delivered: delivered(summary, 'jobUid') }
  )));
  const jobSets = await Promise.all((await fleet(store, 'JobSet')).map(async (summary): Promise<Decided> => (
    { kind: 'JobSet', view: await storedJobSetView(store, summary, streamOf(summary)), delivered: delivered(summary, 'jobSetUid') }
  )));
  return [...jobs, ...jobSets];
}

async function fleet(store: EventStore, kind: StreamId['kind']): Promise<JobSummary[]> {
  const summaries: JobSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.listJobs({ kind, limit: PAGE, cursor });
    summaries.push(...page.items);
    cursor = page.cursor;
  } while (cursor);
  return summaries.reverse();
}
