import type { RecordedEntry } from '../local/sample/trace-recorder.ts';
import type { OutgoingEvent } from '../forwarder/observation.ts';
import { DEFAULT_PACK_LIMITS, PackBuffer } from '../forwarder/send/pack.ts';
import { InboundDetailType } from '../shared/contract/inbound.ts';

// A recorded trace as the forwarder would put it on the bus: its pod events run through the
// forwarder's own packer (forwarder/send/pack.ts, default limits), at a given rate of events per
// second (each event arrives 1/rate s after the one before), or as a backlog (rate Infinity: all
// at once, so packs fill up to their count and size limits).

/** The trace's entries as the forwarder would send them at `eventsPerSecond` (default: a backlog). */
export function packedEntries(entries: readonly RecordedEntry[], eventsPerSecond = Infinity): RecordedEntry[] {
  const buffer = new PackBuffer(DEFAULT_PACK_LIMITS);
  const out: RecordedEntry[] = [];
  const emit = (events: readonly OutgoingEvent[], at: number) => {
    for (const e of events) out.push({ at, Source: e.source, DetailType: e.detailType, Detail: e.detail });
  };
  entries.forEach((entry, i) => {
    const nowMs = Number.isFinite(eventsPerSecond) ? (i * 1000) / eventsPerSecond : 0;
    emit(buffer.due(nowMs), entry.at);
    emit(buffer.add(outgoing(entry), nowMs), entry.at);
  });
  emit(buffer.drain(), entries.at(-1)?.at ?? 0);
  return out;
}

/** A recorded entry as the forwarder's pipeline carries it (the fields packing reads). */
function outgoing(entry: RecordedEntry): OutgoingEvent {
  const detail = JSON.parse(entry.Detail) as { eventId: string; observedAt: string; partitionKey?: string; object?: { metadata?: { uid?: string; name?: string } } };
  const kind = entry.DetailType.startsWith('Pod') ? 'Pod' : 'Job';
  return {
    source: entry.Source,
    detailType: entry.DetailType as InboundDetailType,
    detail: entry.Detail,
    time: detail.observedAt,
    eventId: detail.eventId,
    deleted: entry.DetailType === InboundDetailType.PodDeleted || entry.DetailType === InboundDetailType.JobDeleted,
    subject: { kind, uid: detail.object?.metadata?.uid ?? '', name: detail.object?.metadata?.name ?? '' },
    ...(detail.partitionKey ? { partitionKey: detail.partitionKey } : {}),
  };
}
