import type { RecordedEntry } from '../local/sample/trace-recorder.ts';
import type { ObjectIdentity, OutgoingEvent } from '../forwarder/observation.ts';
import { DEFAULT_PACK_LIMITS, PackBuffer } from '../forwarder/send/pack.ts';
import { InboundDetailType } from '../shared/contract/inbound.ts';

// A recorded trace as the forwarder would put it on the bus: its pod events run through the
// forwarder's own packer (forwarder/send/pack.ts, default limits: the 50 ms window, 500
// observations, the entry size), at a given rate of events per second (each event arrives
// 1/rate s after the one before, so a window gathers rate × 0.05 of them), or as a backlog
// (rate Infinity: all at once, so packs fill up to their count and size limits).

/** The trace's entries as the forwarder would send them at `eventsPerSecond` (default: a backlog). */
export function packedEntries(entries: readonly RecordedEntry[], eventsPerSecond = Infinity): RecordedEntry[] {
  return [...packedFeed(entries, eventsPerSecond)];
}

/**
 * packedEntries one entry at a time, packed as it is asked for: a feeder that sends as it packs
 * overlaps its packing with the service's work, as a forwarder does.
 */
export function* packedFeed(entries: readonly RecordedEntry[], eventsPerSecond = Infinity): Generator<RecordedEntry> {
  const buffer = new PackBuffer(DEFAULT_PACK_LIMITS);
  const entry = (e: OutgoingEvent, at: number): RecordedEntry => ({ at, Source: e.source, DetailType: e.detailType, Detail: e.detail });
  for (const [i, recorded] of entries.entries()) {
    const nowMs = Number.isFinite(eventsPerSecond) ? (i * 1000) / eventsPerSecond : 0;
    for (const e of buffer.due(nowMs)) yield entry(e, recorded.at);
    for (const e of buffer.add(outgoing(recorded), nowMs)) yield entry(e, recorded.at);
  }
  for (const e of buffer.drain()) yield entry(e, entries.at(-1)?.at ?? 0);
}

/** A recorded entry as the forwarder's pipeline carries it (the fields packing reads). */
function outgoing(entry: RecordedEntry): OutgoingEvent {
  const detail = JSON.parse(entry.Detail) as { eventId: string; observedAt: string; partitionKey?: string; object?: { metadata?: Partial<Pick<ObjectIdentity, 'uid' | 'name' | 'labels' | 'ownerReferences'>> } };
  const meta = detail.object?.metadata ?? {};
  const kind = entry.DetailType.startsWith('Pod') ? 'Pod' : 'Job';
  return {
    source: entry.Source,
    detailType: entry.DetailType as InboundDetailType,
    detail: entry.Detail,
    time: detail.observedAt,
    eventId: detail.eventId,
    deleted: entry.DetailType === InboundDetailType.PodDeleted || entry.DetailType === InboundDetailType.JobDeleted,
    // As the forwarder's (forwarder/observation.ts): packs group a Job's pods by their owner.
    subject: {
      kind, uid: meta.uid ?? '', name: meta.name ?? '',
      ...(meta.labels === undefined ? {} : { labels: meta.labels }),
      ...(meta.ownerReferences === undefined ? {} : { ownerReferences: meta.ownerReferences }),
    },
    ...(detail.partitionKey ? { partitionKey: detail.partitionKey } : {}),
  };
}
