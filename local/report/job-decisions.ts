import { loadState } from '../../shared/decide/load-log.ts';
import { jobDecider } from '../../shared/job/index.ts';
import type { EventStore, JobSummary } from '../../shared/app/event-store.ts';
import type { PodArchive } from '../../shared/app/pod-archive.ts';
import type { FoldConfig } from '../../shared/job/state.ts';
import { jobStatus, type JobStatusView } from '../../shared/job/status.ts';
import type { DeliveredEntry, Deliveries } from '../bus/bus-rules.ts';

/** What was decided for one Job: its status from the log, and the commands its cluster received. */
export interface JobDecisions {
  readonly clusterId: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly status: JobStatusView;
  readonly commands: readonly DeliveredEntry[];
}

const PAGE = 100;

/** Every Job in the fleet view, oldest first, folded from its log. */
export async function jobDecisions(
  store: EventStore & PodArchive,
  config: FoldConfig,
  deliveries: Deliveries,
): Promise<JobDecisions[]> {
  const summaries: JobSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.listJobs({ kind: 'Job', limit: PAGE, cursor });
    summaries.push(...page.items);
    cursor = page.cursor;
  } while (cursor);
  summaries.reverse();
  const decider = jobDecider(config);
  return Promise.all(summaries.map(async (summary) => {
    const { clusterId, namespace, name, uid } = summary;
    const { state } = await loadState(decider, store, { kind: 'Job', clusterId, namespace, uid });
    const commands = deliveries.commandsFor(clusterId).filter((c) => c.detail['jobUid'] === uid);
    return { clusterId, namespace, name, uid, status: jobStatus(state), commands };
  }));
}
