import { parseTime } from '../k8s/time.ts';
import type { JobEvent } from '../job/evolve.ts';

/**
 * When each pod ended in the record (epoch ms): the first observation that shows it Succeeded,
 * Failed or deleted. A pod still running when the log ends gets the log's last time, a lower
 * bound. One pass, one number per pod.
 */
export function podEnds(log: readonly JobEvent[]): { ends: Map<string, number>; lastAt: number } {
  const ends = new Map<string, number>();
  let lastAt = 0;
  for (const event of log) {
    const when = parseTime('observedAt' in event ? event.observedAt : event.at);
    if (when > lastAt) lastAt = when;
    if (event.type === 'PodObserved') {
      const uid = event.pod.metadata.uid;
      const phase = event.pod.status?.phase;
      const ended = phase === 'Succeeded' || phase === 'Failed';
      if (ended && !ends.has(uid)) ends.set(uid, when);
    } else if (event.type === 'PodDeleted' && !ends.has(event.uid)) {
      ends.set(event.uid, when);
    }
  }
  return { ends, lastAt };
}
