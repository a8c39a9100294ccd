import { readFileSync } from 'node:fs';
import type { NewEntry, StreamId } from '../../../../shared/app/event-store.ts';
import {
  fold,
  JobObservedSchema,
  JobSetObservedSchema,
  settle,
  type JobSetEvent,
  type JobSetObservation,
} from '../../../../shared/jobset/index.ts';
import type { ServiceStore } from './service-fleet.ts';

// A JobSet log as the JobSet integration will write it (not built yet): each observation
// appended, then the decisions the fold settles into at that time committed with the fleet
// summary. Bodies are the fold's events, `{type, ...}`.

const REPO = new URL('../../../../', import.meta.url);

interface Fixture {
  readonly jobset: { metadata: { namespace?: string; name: string; uid?: string } } & Record<string, unknown>;
  readonly events: readonly { type: string; at: string; job?: unknown; jobs?: unknown[]; name?: string }[];
}

/** Writes the log of a JobSet fixture (test/fixtures/jobset) into the store. */
export async function writeJobSetFixture(store: ServiceStore, path: string, clusterId: string): Promise<StreamId> {
  const fixture = JSON.parse(readFileSync(new URL(path, REPO), 'utf8')) as Fixture;
  const { metadata } = fixture.jobset;
  const stream: StreamId = { kind: 'JobSet', clusterId, namespace: metadata.namespace ?? 'default', uid: metadata.uid ?? 'jobset-uid' };
  const createdAt = fixture.events[0]?.at ?? '2026-01-01T00:00:00Z';
  let state = fold([]);
  let head = 0;
  const record = async (observations: JobSetObservation[], at: string): Promise<void> => {
    const appended = await store.append(stream, observations.map((o) => entry(`obs-${head + 1}-${o.type}`, o, at)), at);
    head += appended.appended.length;
    state = fold(observations, state);
    const settled = settle(state, at);
    state = settled.state;
    const decisions = settled.events.map((e, i) => entry(`dec-${head + i + 1}`, e, at));
    const latest = state.conditions.at(-1);
    const finished = state.conditions.find((c) => (c.type === 'Completed' || c.type === 'Failed') && c.status === 'True');
    await store.commit(stream, {
      expectedHead: head,
      recordedAt: at,
      entries: decisions,
      outbox: [],
      summary: {
        name: metadata.name,
        createdAt,
        updatedAt: at,
        ...(latest ? { latestCondition: { type: latest.type, status: latest.status, reason: latest.reason, message: latest.message, lastTransitionTime: latest.lastTransitionTime } } : {}),
        ...(finished ? { finishedAt: finished.lastTransitionTime } : {}),
      },
    });
    head += decisions.length;
  };
  await record([JobSetObservedSchema.parse({ type: 'JobSetObserved', at: createdAt, jobSet: fixture.jobset })], createdAt);
  for (const event of fixture.events) {
    const jobs = event.type === 'JobStatus' ? [event.job] : event.type === 'JobStatusBatch' ? (event.jobs ?? []) : [];
    const observations: JobSetObservation[] =
      event.type === 'JobDeleted'
        ? [{ type: 'JobDeleted', at: event.at, eventId: undefined, name: event.name ?? '' }]
        : jobs.map((job) => JobObservedSchema.parse({ type: 'JobObserved', at: event.at, job }));
    await record(observations, event.at);
  }
  return stream;
}

function entry(eventId: string, event: JobSetEvent, at: string): NewEntry {
  return { eventId, type: event.type, observedAt: at, body: event };
}
