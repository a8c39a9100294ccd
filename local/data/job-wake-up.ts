import type { EventStore, StreamId } from '../../shared/log/event-store.ts';
import type { PodArchive } from '../../shared/log/pod-archive.ts';
import { loadState } from '../../shared/decide/load-log.ts';
import { jobDecider } from '../../shared/job/index.ts';
import type { FoldConfig } from '../../shared/job/index.ts';

/**
 * The wake-up a Job's writer last asked for: what `decide` asks for at the time of the log's
 * newest entry (deadline, backoff, expectations), without logging anything. A time already past
 * fires at once, as a late Scheduler timer does, and its Tick is logged at that due time.
 */
export async function jobWakeUp(deps: { store: EventStore & PodArchive; config: FoldConfig }, stream: StreamId): Promise<string | undefined> {
  const decider = jobDecider(deps.config);
  const { state, lastEntry } = await loadState(decider, deps.store, stream);
  const at = lastEntry?.observedAt ?? state.newestObservedAt;
  return at === undefined ? undefined : decider.decide(state, at).wakeAt;
}
