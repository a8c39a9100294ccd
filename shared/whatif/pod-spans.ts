import { parseTime } from '../k8s/time.ts';
import type { JobEvent } from '../job/evolve.ts';

/** When each pod of the record was first seen and when it ended (epoch ms). */
export interface PodSpans {
  readonly starts: ReadonlyMap<string, number>;
  readonly ends: ReadonlyMap<string, number>;
  /** The log's last time: the end of a pod still running when the log ends (a lower bound). */
  readonly lastAt: number;
}

/**
 * One pass over the record: a pod starts at its first observation and ends at the first
 * observation that shows it Succeeded, Failed or deleted. One number per pod and edge.
 */
export function podSpans(log: readonly JobEvent[]): PodSpans {
  const starts = new Map<string, number>();
  const ends = new Map<string, number>();
  let lastAt = 0;
  for (const event of log) {
    const when = parseTime('observedAt' in event ? event.observedAt : event.at);
    if (when > lastAt) lastAt = when;
    if (event.type === 'PodObserved') {
      const uid = event.pod.metadata.uid;
      if (!starts.has(uid)) starts.set(uid, when);
      const phase = event.pod.status?.phase;
      const ended = phase === 'Succeeded' || phase === 'Failed';
      if (ended && !ends.has(uid)) ends.set(uid, when);
    } else if (event.type === 'PodDeleted' && !ends.has(event.uid)) {
      if (!starts.has(event.uid)) starts.set(event.uid, when);
      ends.set(event.uid, when);
    }
  }
  return { starts, ends, lastAt };
}

/** Milliseconds pod `uid` ran in the record after `from` (0 if it ended by then). */
export function recordedAfter(spans: PodSpans, uid: string, from: number): number {
  const start = Math.max(spans.starts.get(uid) ?? from, from);
  const end = spans.ends.get(uid) ?? spans.lastAt;
  return Math.max(0, end - start);
}
