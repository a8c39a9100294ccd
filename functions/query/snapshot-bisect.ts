import type { EventStore, StreamId } from '../../shared/log/event-store.ts';

// Where in a long log a condition began, without reading the log from the start. A condition as
// it stands at `head` holds in every state from its decision on and in none before, so a binary
// search over the snapshots kept at their positions narrows the decision to the entries between
// two of them. Used for Job conditions (condition-decisions.ts) and JobSet conditions
// (jobsets/jobset-log-window.ts).

/** Below this many entries between two known positions, reading them beats more snapshot loads. */
export const SCAN_WINDOW = 16;

/**
 * Positions `without` (the condition does not hold yet; 0 is before the log) and `holds` (it
 * holds), as close as the snapshots allow: the decision lies in (without, holds].
 */
export async function bisectBySnapshots(
  store: Pick<EventStore, 'loadSnapshot'>,
  stream: StreamId,
  head: number,
  holdsIn: (snapshotState: unknown) => boolean,
): Promise<{ without: number; holds: number }> {
  let without = 0;
  let holds = head;
  while (holds - without > SCAN_WINDOW) {
    const mid = Math.floor((without + holds) / 2);
    let snapshot = await store.loadSnapshot(stream, { atOrBefore: mid });
    if (snapshot === undefined || snapshot.seq <= without) {
      // No snapshot in (without, mid]: try the newest one before `holds`.
      snapshot = await store.loadSnapshot(stream, { atOrBefore: holds - 1 });
      if (snapshot === undefined || snapshot.seq <= without) break;
    }
    if (holdsIn(snapshot.state)) holds = snapshot.seq;
    else without = snapshot.seq;
  }
  return { without, holds };
}

/**
 * The store's snapshot loads, each position loaded once: a request that bisects for several
 * conditions probes the same positions for each (they start from the same bounds).
 */
export function memoSnapshots(store: Pick<EventStore, 'loadSnapshot'>): Pick<EventStore, 'loadSnapshot'> {
  const loaded = new Map<number | undefined, ReturnType<EventStore['loadSnapshot']>>();
  return {
    loadSnapshot: (stream, options) => {
      const key = options?.atOrBefore;
      let snapshot = loaded.get(key);
      if (snapshot === undefined) {
        snapshot = store.loadSnapshot(stream, options);
        loaded.set(key, snapshot);
      }
      return snapshot;
    },
  };
}
