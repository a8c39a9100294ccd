import { jobStatus } from './status.ts';
import type { JobState } from './state.ts';
import { stableHash } from './stable-hash.ts';
import type { NewEntry, StreamId } from '../log/event-store.ts';

/**
 * A Job owned by a JobSet reports its status to the JobSet's log, as jobfold computed it — so
 * the JobSet's failure policy matches the reasons jobfold decided (`PodFailurePolicy_<name>`,
 * KEP-4443), whatever the cluster's own controller writes.
 */
export function childJobStatusEntry(state: JobState, now: string): { stream: StreamId; entry: NewEntry } | undefined {
  const identity = state.identity;
  const owner = identity?.owner;
  if (!identity || owner?.kind !== 'JobSet' || !state.spec) return undefined;
  const status = jobStatus(state);
  const job = {
    metadata: { name: identity.name, namespace: identity.namespace, uid: identity.uid, labels: identity.labels ?? {} },
    spec: {
      parallelism: state.spec.parallelism ?? 1,
      completions: state.spec.completions,
      suspend: state.spec.suspend ?? false,
    },
    status: {
      active: status.active,
      ready: status.ready,
      succeeded: status.succeeded,
      failed: status.failed,
      conditions: status.conditions.map(({ type, status: s, reason, message, lastTransitionTime }) => ({
        type,
        status: s,
        reason,
        message,
        lastTransitionTime,
      })),
    },
  };
  // Named by the status and its version (shared/job/child-status-version.ts): an unchanged
  // status is stored once however often the Job is reconciled, and a status that comes back
  // after another (ready 1 → 0 → 1) is a new version, stored and forwarded again. `sequence`
  // (the Job log's position) lets the JobSet fold drop a status that arrives after a newer one.
  const eventId = `${identity.uid}/status/${state.childStatusVersion}/${stableHash(job)}`;
  const sequence = { epoch: 0, seq: Math.max(1, state.position) };
  return {
    stream: { kind: 'JobSet', clusterId: identity.clusterId, namespace: identity.namespace, uid: owner.uid },
    entry: { eventId, type: 'JobObserved', observedAt: now, body: { type: 'JobObserved', at: now, eventId, sequence, job } },
  };
}
