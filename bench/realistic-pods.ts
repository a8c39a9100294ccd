import { randomInt, randomUUID } from 'node:crypto';
import type { RecordedEntry } from '../local/sample/trace-recorder.ts';

// The recorded pods are alike in ways real pods are not: their uids count up, they have no node,
// no IP, and their times are shared. Pods of one Job compress very well, so that flatters the
// stream's bytes per observation. This gives each pod what a real cluster would: a random v4 uid
// (and a random resourceVersion, hence eventId, per event), a node name, a pod and a host IP, and a
// start time at a random second, so the per-Job ceiling can take the worse of the two.

interface PodDetail {
  eventId: string;
  object: {
    metadata: { uid: string; resourceVersion?: string };
    spec?: { nodeName?: string };
    status?: { podIP?: string; hostIP?: string; startTime?: string };
  };
}

/** `entries` with every pod given a real-looking identity and placement (Job events unchanged). */
export function withRealisticPods(entries: readonly RecordedEntry[]): RecordedEntry[] {
  const pods = new Map<string, { uid: string; node: string; ip: string; host: string; start: string }>();
  return entries.map((entry) => {
    if (!entry.DetailType.startsWith('Pod')) return entry;
    const recordedUid = (JSON.parse(entry.Detail) as PodDetail).object.metadata.uid;
    let pod = pods.get(recordedUid);
    if (!pod) {
      const ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(256)}`;
      pod = {
        uid: randomUUID(), ip, host: `10.0.${randomInt(256)}.${randomInt(256)}`,
        node: `ip-${ip.replaceAll('.', '-')}.eu-west-1.compute.internal`,
        start: new Date(Date.UTC(2026, 0, 1) + randomInt(600) * 1000).toISOString().replace('.000Z', 'Z'),
      };
      pods.set(recordedUid, pod);
    }
    const detail = JSON.parse(entry.Detail.replaceAll(recordedUid, pod.uid)) as PodDetail;
    const { object } = detail;
    object.metadata.resourceVersion = String(randomInt(1e9));
    detail.eventId = `${pod.uid}/${object.metadata.resourceVersion}`;
    if (object.spec) object.spec.nodeName = pod.node;
    if (object.status) Object.assign(object.status, { podIP: pod.ip, hostIP: pod.host, startTime: pod.start });
    return { ...entry, Detail: JSON.stringify(detail) };
  });
}
