import type { JobSummary, StreamId } from '../../shared/log/event-store.ts';
import type { DecisionOf } from '../../shared/job/index.ts';
import { explainJob } from '../../shared/job/index.ts';
import type { QueryDeps } from './http.ts';
import { commandLog, issuedCommands, type CommandLogEvent } from './issued-commands.ts';
import { citedDecisions } from './job-explanation.ts';
import { foldTo } from './job-state-at.ts';
import { jobView, type JobView } from './views.ts';
import { logHead, readRun } from './log-reads.ts';
import { LogWindow } from './log-window.ts';

// `GET …/jobs/{name}` without replaying the log: the state from the newest snapshot and its tail
// (job-state-at.ts), the explanation from the entries it cites (job-explanation.ts), and the
// commands of the last COMMANDS_WINDOW entries — every command when the log is no longer, as
// for nearly every Job; on a longer log `commandsFrom` says where the list starts and /history
// holds the rest. The window also ends where its commands would name more than COMMANDS_PODS
// pods (whole decisions only): terminating 100,000 pods is a few dozen decision entries whose
// pods alone would pass a response's 6 MB. So a 100,000-index Job costs one snapshot, its tail
// and a bounded window, and answers a bounded body.

/** Entries whose commands the view lists at most. */
export const COMMANDS_WINDOW = 5000;
/** Pods the listed commands name at most, unless the last command alone names more. */
export const COMMANDS_PODS = 5000;

export async function storedJobView(
  deps: QueryDeps,
  summary: JobSummary,
  stream: StreamId,
  commandsWindow = COMMANDS_WINDOW,
  commandsPods = COMMANDS_PODS,
): Promise<JobView> {
  const head = await logHead(deps.store, stream);
  const { entries, firstSightings } = await readRun(deps.store, stream, Math.max(0, head - commandsWindow), head);
  // The tail after the newest snapshot is usually inside the window: read once, and the fold
  // parses only it; the commands read the rest for what they need (commandLog).
  const known = new LogWindow(entries);
  const { state } = await foldTo(deps, stream, head, { known: { window: known, firstSightings } });
  const window = withinPods(commandLog(known), commandsPods);
  const after = (window[0]?.seq ?? head + 1) - 1;
  // The creations requested before the window: those at the head minus those within it.
  const creationsWithin = window
    .filter((event): event is DecisionOf<'PodCreationsRequested'> => event.type === 'PodCreationsRequested')
    .reduce((sum, decision) => sum + decision.count, 0);
  const commands = issuedCommands(window, state.settings?.managedBy, summary.uid, state.creationRequests - creationsWithin);
  const explanation = explainJob(state, await citedDecisions(deps, stream, state, head, known));
  const lastRecordedAt = entries.at(-1)?.recordedAt;
  return jobView(summary, state, explanation, { commands, commandsFrom: after + 1 }, { head, lastRecordedAt });
}

/** The longest suffix of `events` whose commands name at most `pods` pods (at least the last command's). */
function withinPods(events: readonly CommandLogEvent[], pods: number): CommandLogEvent[] {
  let named = 0;
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    const count = event.type === 'PodsTerminationRequested' || event.type === 'PodFinalizersRemovalRequested' ? event.pods.length : 0;
    if (named > 0 && named + count > pods) return events.slice(i + 1);
    named += count;
  }
  return [...events];
}
