import { aJob, aPod } from '../../support/builders.ts';
import { jobObservedEvent, podObservedEvent, type InboundEnvelope } from '../../support/inbound-events.ts';
import type { Job } from '../../../shared/k8s/job.ts';

// A burst as a current forwarder sends it, for the faults that kill processes: one Job of `pods`
// pods (backoffLimit 0, a FailJob rule on exit code 42), its pods Running, then pod 0 failing
// with 42: the Job fails (PodFailurePolicy) and its other pods are to be terminated. Every event
// carries the Job's uid as partitionKey, the forwarder's `<uid>/<resourceVersion>` eventId and
// its order stamp, as forwarder/observation.ts builds them.

export const CLUSTER = 'faults-1';

export interface PutEntry {
  readonly Source: string;
  readonly DetailType: string;
  readonly Detail: string;
}

export interface Burst {
  readonly job: Job;
  readonly name: string;
  readonly entries: readonly PutEntry[];
  readonly eventIds: readonly string[];
  /** The pods the failure leaves to terminate. */
  readonly lingering: number;
}

export function burst(name: string, pods: number, startMs = Date.now()): Burst {
  const uid = `${name}-${startMs.toString(36)}`;
  const at = (ms: number) => new Date(startMs + ms).toISOString();
  const job = aJob({
    completions: pods, parallelism: pods, backoffLimit: 0,
    podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } }] },
  }, { name, uid });
  const epoch = startMs;
  let rv = 100;
  const stamp = (event: InboundEnvelope, objectUid: string, seq: number): PutEntry => {
    const detail = { ...(event.detail as Record<string, unknown>), eventId: `${objectUid}/${++rv}`, partitionKey: uid, sequence: { epoch, seq } };
    return { Source: event.source, DetailType: event['detail-type'], Detail: JSON.stringify(detail) };
  };
  const podUid = (i: number) => `${uid}-p${i}`;
  const entries: PutEntry[] = [stamp(jobObservedEvent(job, at(0), { clusterId: CLUSTER }), uid, 1)];
  for (let i = 0; i < pods; i++) {
    const pod = aPod({ name: `${name}-p${i}`, uid: podUid(i), creationTimestamp: at(1) });
    entries.push(stamp(podObservedEvent(pod, job, at(10 + i), { clusterId: CLUSTER }), podUid(i), 1));
  }
  const failed = aPod({ name: `${name}-p0`, uid: podUid(0), phase: 'Failed', exitCode: 42, finishedAt: at(20_000), creationTimestamp: at(1) });
  entries.push(stamp(podObservedEvent(failed, job, at(20_000), { clusterId: CLUSTER }), podUid(0), 2));
  return { job, name, entries, eventIds: entries.map((e) => (JSON.parse(e.Detail) as { eventId: string }).eventId), lingering: pods - 1 };
}

/** The Job's log through the API, all pages: eventIds of observations, and decisions by type. */
export async function logOf(url: string, name: string): Promise<{ status: number; observed: string[]; all: string[]; decisions: string[] }> {
  const base = `${url}/v1/clusters/${CLUSTER}/namespaces/default/jobs/${name}`;
  const observed: string[] = [];
  const all: string[] = [];
  const decisions: string[] = [];
  for (let after = 0; ;) {
    const response = await fetch(`${base}/history?limit=500&after=${after}`);
    if (response.status !== 200) return { status: response.status, observed, all, decisions };
    const page = (await response.json()) as { entries: { eventId: string; type: string; seq: number }[]; nextAfter?: number | null };
    for (const entry of page.entries) {
      all.push(entry.eventId);
      if (entry.type === 'PodObserved' || entry.type === 'JobObserved') observed.push(entry.eventId);
      else decisions.push(entry.type);
    }
    if (page.nextAfter === undefined || page.nextAfter === null || page.entries.length === 0) break;
    after = page.nextAfter;
  }
  return { status: 200, observed, all, decisions };
}

/** Every command decided for the Job (the log's, through the API), pods terminated by uid. */
export async function terminationsOf(url: string, name: string): Promise<string[]> {
  const pods: string[] = [];
  for (let cursor: string | undefined; ;) {
    const response = await fetch(`${url}/v1/clusters/${CLUSTER}/namespaces/default/jobs/${name}/commands?limit=5000${cursor ? `&after=${encodeURIComponent(cursor)}` : ''}`);
    if (response.status !== 200) return pods;
    const page = (await response.json()) as { items: { type: string; pods?: { uid: string }[] }[]; nextCursor?: string };
    for (const item of page.items) if (item.type === 'TerminatePod') pods.push(...(item.pods ?? []).map((p) => p.uid));
    if (!page.nextCursor) return pods;
    cursor = page.nextCursor;
  }
}

/** Pairs seen more than once. */
export const repeated = (values: readonly string[]): string[] => {
  const seen = new Set<string>();
  return [...new Set(values.filter((v) => seen.has(v) || !seen.add(v)))];
};
