import type { JobSummary, StreamId } from '../../shared/app/event-store.ts';
import { entryEvent } from '../../shared/app/log-codec.ts';
import type { DecisionOf } from '../../shared/job/decisions.ts';
import { explainJob } from '../../shared/job/explain.ts';
import type { QueryDeps } from './http.ts';
import { issuedCommands } from './issued-commands.ts';
import { citedDecisions } from './job-explanation.ts';
import { foldTo } from './job-state-at.ts';
import { jobView, type JobView } from './job-view.ts';
import { logHead, readRange } from './log-reads.ts';

// `GET …/jobs/{name}` without replaying the log: the state from the newest snapshot and its tail
// (job-state-at.ts), the explanation from the entries it cites (job-explanation.ts), and the
// commands of the last COMMANDS_WINDOW entries — every command when the log is no longer, as
// for nearly every Job; on a longer log `commandsFrom` says where the list starts and /history
// holds the rest. So a 100,000-index Job costs one snapshot, its tail and a bounded window.

/** Entries whose commands the view lists at most. */
export const COMMANDS_WINDOW = 5000;

export async function storedJobView(
  deps: QueryDeps,
  summary: JobSummary,
  stream: StreamId,
  commandsWindow = COMMANDS_WINDOW,
): Promise<JobView> {
  const head = await logHead(deps.store, stream);
  const { state } = await foldTo(deps, stream, head);
  const after = Math.max(0, head - commandsWindow);
  const entries = await readRange(deps.store, stream, after, head);
  const window = entries.map(entryEvent);
  // The creations requested before the window: those at the head minus those within it.
  const creationsWithin = window
    .filter((event): event is DecisionOf<'PodCreationsRequested'> => event.type === 'PodCreationsRequested')
    .reduce((sum, decision) => sum + decision.count, 0);
  const commands = issuedCommands(window, state.settings?.managedBy, summary.uid, state.creationRequests - creationsWithin);
  const explanation = explainJob(state, await citedDecisions(deps, stream, state, head));
  const lastRecordedAt = entries.at(-1)?.recordedAt;
  return jobView(summary, state, { explanation, commands, commandsFrom: after + 1, head, lastRecordedAt });
}
