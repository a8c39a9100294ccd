import type { EventStore, NewCommand, NewEntry, StreamId, SummaryUpdate } from '../../../../shared/log/event-store.ts';
import type { PodArchive } from '../../../../shared/log/pod-archive.ts';
import type { ChangeFeed } from '../../../../shared/log/change-feed.ts';
import type { ArchivedPod } from '../../../../shared/job/snapshot.ts';

/** Makes a fresh, empty store (with its pod archive and change feed) for one test. */
export type EventStoreFactory = () => Promise<EventStore & PodArchive & ChangeFeed>;

export const T0 = '2026-11-01T10:00:00Z';

/** T0 plus `seconds`, as the API server writes times. */
export function at(seconds: number): string {
  return new Date(Date.parse(T0) + seconds * 1000).toISOString().replace('.000Z', 'Z');
}

let streams = 0;

/** A Job stream with a uid no other test uses. */
export function aStream(overrides: Partial<StreamId> = {}): StreamId {
  streams++;
  return {
    kind: 'Job',
    clusterId: 'cluster-a',
    namespace: 'default',
    uid: `6f1c2d3e-0000-4000-8000-${String(streams).padStart(12, '0')}`,
    ...overrides,
  };
}

export function anEntry(eventId: string, body: unknown = { eventId }): NewEntry {
  return { eventId, type: 'PodSucceeded', observedAt: T0, body };
}

export function aCommand(commandId: string, createdAt = T0): NewCommand {
  return { commandId, clusterId: 'cluster-a', detailType: 'DeletePod', detail: { pod: `pod-${commandId}` }, createdAt };
}

export function aSummary(overrides: Partial<SummaryUpdate> = {}): SummaryUpdate {
  return { name: 'train', createdAt: T0, updatedAt: T0, ...overrides };
}

export function anArchivedPod(index: number, overrides: Partial<ArchivedPod> = {}): ArchivedPod {
  return {
    uid: `pod-uid-${index}`, name: `train-${index}-abcde`, namespace: 'default', phase: 'Succeeded',
    index, counted: 'succeeded', gone: false, seq: 10 + index, ...overrides,
  };
}

/** A pod event body of about 1 KB, like the ones the cluster agents forward. */
export function podEventBody(index: number): unknown {
  return {
    pod: {
      metadata: {
        name: `train-7f9c-${index}-abcde`,
        namespace: 'ml-team',
        uid: `0b6f3c2e-8d1a-4f7e-9a55-${String(index).padStart(12, '0')}`,
        resourceVersion: String(123456789 + index),
        labels: {
          'batch.kubernetes.io/job-completion-index': String(index),
          'batch.kubernetes.io/controller-uid': '5e0a1b2c-3d4e-5f60-7182-93a4b5c6d7e8',
          'job-name': 'train-7f9c',
        },
        ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'train-7f9c', uid: '5e0a1b2c-3d4e-5f60-7182-93a4b5c6d7e8', controller: true }],
      },
      spec: { nodeName: `ip-10-0-${index % 256}-17.eu-west-1.compute.internal` },
      status: {
        phase: 'Failed',
        hostIP: '10.0.1.17',
        podIP: `10.0.${index % 256}.42`,
        qosClass: 'Burstable',
        startTime: '2026-11-01T10:00:02Z',
        conditions: [{ type: 'DisruptionTarget', status: 'False', lastTransitionTime: '2026-11-01T10:05:00Z' }],
        containerStatuses: [{
          name: 'main',
          restartCount: 0,
          state: { terminated: {
            exitCode: 42,
            reason: 'Error',
            message: `Traceback (most recent call last): ValueError: loss is NaN at step ${1200 + index}`,
            startedAt: '2026-11-01T10:00:03Z',
            finishedAt: '2026-11-01T10:05:00Z',
            containerID: 'containerd://4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b',
          } },
        }],
      },
    },
    index,
  };
}

/** Deterministic text that compresses poorly, `length` characters long. */
export function noise(length: number, seed = 1): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let state = seed >>> 0 || 1;
  let text = '';
  for (let i = 0; i < length; i++) {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    text += alphabet[state % 64];
  }
  return text;
}
