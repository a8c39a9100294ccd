import { owningJobUid } from '../../shared/contract/routing.ts';
import {
  encodePack, MAX_PACK_DECODED_BYTES, MAX_PACK_OBSERVATIONS, PACKABLE_DETAIL_TYPES, PACKED_DETAIL_TYPE,
} from '../../shared/contract/packed-observations.ts';
import type { OutgoingEvent } from '../observation.ts';
import { ENVELOPE_HEADROOM_BYTES, entrySize, MAX_ENTRY_BYTES } from './batching.ts';

// Packing (docs/forwarder.md, "Packing"): pod events of one Job produced close together go out as
// one `Pod Observations` event, so a big Job's events enter its one Kinesis shard as a fraction
// of the records. Pure: time is passed in; packer.ts runs the window's timer.

export interface PackLimits {
  /** How long the first observation of a pack waits for others (ms). */
  readonly windowMs: number;
  readonly maxObservations: number;
  /** Bytes of the observations' JSON before compression (the writer refuses more when decoding). */
  readonly maxDecodedBytes: number;
  /** Bytes of the pack as a PutEvents entry (EventBridge's 256 KiB, less the envelope's room). */
  readonly maxEntryBytes: number;
}

export const DEFAULT_PACK_LIMITS: PackLimits = {
  windowMs: 50,
  maxObservations: Math.min(500, MAX_PACK_OBSERVATIONS),
  maxDecodedBytes: MAX_PACK_DECODED_BYTES,
  maxEntryBytes: MAX_ENTRY_BYTES - ENVELOPE_HEADROOM_BYTES,
};

/**
 * The Job (and cluster, and partition key) an event may be packed under; undefined when it goes
 * alone. A pack holds one Job's observations: the pods of a JobSet's Jobs share the JobSet's
 * partition key, so the key alone does not name the Job.
 */
export function packKey(event: OutgoingEvent): string | undefined {
  if (!event.partitionKey || event.packed || !PACKABLE_DETAIL_TYPES.includes(event.detailType)) return undefined;
  const job = owningJobUid({ metadata: event.subject } as Parameters<typeof owningJobUid>[0]) ?? event.subject.uid;
  return `${event.source}\n${event.partitionKey}\n${job}`;
}

/** What one observation adds to a pack's JSON: its detail and the wrapper around it. */
const decodedBytes = (event: OutgoingEvent) => Buffer.byteLength(event.detail, 'utf8') + event.detailType.length + 32;

/**
 * The entries that carry `members` (all of one Job, in order): one pack when it fits an entry,
 * else the halves, each packed the same way, never cutting an observation. One observation goes
 * as the single event it is, as it would without packing.
 */
export function packEntries(members: readonly OutgoingEvent[], maxEntryBytes: number): OutgoingEvent[] {
  const [first] = members;
  if (!first) return [];
  if (members.length === 1) return [first];
  const pack = packEvent(members);
  if (entrySize(pack) <= maxEntryBytes) return [pack];
  const half = Math.ceil(members.length / 2);
  return [...packEntries(members.slice(0, half), maxEntryBytes), ...packEntries(members.slice(half), maxEntryBytes)];
}

function packEvent(members: readonly OutgoingEvent[]): OutgoingEvent {
  const first = members[0] as OutgoingEvent;
  const partitionKey = first.partitionKey as string;
  return {
    source: first.source,
    detailType: PACKED_DETAIL_TYPE,
    detail: encodePack(partitionKey, members.map((m) => ({ detailType: m.detailType, detail: m.detail }))),
    time: first.time,
    eventId: `${first.eventId} (+${members.length - 1} packed)`,
    deleted: false,
    subject: first.subject,
    partitionKey,
    packed: members.map(({ eventId, deleted, subject }) => ({ eventId, deleted, subject })),
  };
}

interface OpenPack {
  readonly members: OutgoingEvent[];
  bytes: number;
  readonly openedAtMs: number;
}

/**
 * The open packs, one per Job. A pack closes when its window has passed, when the next
 * observation would take it past the count or the decoded bytes, or past the entry size as
 * estimated from the compression of the packs before (packEntries splits a pack that is still
 * too big once compressed). An event that cannot be packed closes every open pack first, so the
 * order in which events leave is the order they came in, per Job.
 */
export class PackBuffer {
  readonly #limits: PackLimits;
  readonly #open = new Map<string, OpenPack>();
  /** Encoded bytes per decoded byte, learned from the last pack (pessimistic until then). */
  #ratio = 0.5;

  constructor(limits: PackLimits = DEFAULT_PACK_LIMITS) {
    this.#limits = limits;
  }

  /** Adds an event; returns the entries ready to send, in order. */
  add(event: OutgoingEvent, nowMs: number): OutgoingEvent[] {
    const key = packKey(event);
    if (key === undefined) return [...this.drain(), event];
    const ready: OutgoingEvent[] = [];
    const size = decodedBytes(event);
    const open = this.#open.get(key);
    if (open && !this.#fits(open, size)) ready.push(...this.#close(key));
    const pack = this.#open.get(key) ?? { members: [], bytes: 0, openedAtMs: nowMs };
    this.#open.set(key, pack);
    pack.members.push(event);
    pack.bytes += size;
    if (pack.members.length >= this.#limits.maxObservations) ready.push(...this.#close(key));
    return ready;
  }

  /** Closes the packs whose window has passed by `nowMs`. */
  due(nowMs: number): OutgoingEvent[] {
    const keys = [...this.#open].filter(([, p]) => p.openedAtMs + this.#limits.windowMs <= nowMs).map(([k]) => k);
    return keys.flatMap((key) => this.#close(key));
  }

  /** When the oldest open pack is due, if any is open. */
  nextDueAtMs(): number | undefined {
    let next: number | undefined;
    for (const pack of this.#open.values()) next = Math.min(next ?? Infinity, pack.openedAtMs + this.#limits.windowMs);
    return next;
  }

  /** Closes every open pack, oldest first. */
  drain(): OutgoingEvent[] {
    return [...this.#open.keys()].flatMap((key) => this.#close(key));
  }

  get openObservations(): number {
    let n = 0;
    for (const pack of this.#open.values()) n += pack.members.length;
    return n;
  }

  #fits(pack: OpenPack, size: number): boolean {
    const bytes = pack.bytes + size;
    return pack.members.length < this.#limits.maxObservations && bytes <= this.#limits.maxDecodedBytes
      && bytes * this.#ratio <= this.#limits.maxEntryBytes;
  }

  #close(key: string): OutgoingEvent[] {
    const pack = this.#open.get(key);
    this.#open.delete(key);
    if (!pack) return [];
    const entries = packEntries(pack.members, this.#limits.maxEntryBytes);
    const packs = entries.filter((e) => e.packed);
    if (packs.length > 0) {
      const encoded = packs.reduce((n, e) => n + entrySize(e), 0);
      const decoded = packs.reduce((n, e) => n + (e.packed?.length ?? 0), 0) * (pack.bytes / pack.members.length);
      // A little pessimism: the next Job's pods may compress worse than these.
      this.#ratio = Math.min(1.5, Math.max(0.01, (encoded / decoded) * 1.25));
    }
    return entries;
  }
}
