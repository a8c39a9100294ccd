import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.ts';

// Every eventId a log holds (a Job's or a JobSet's), so the writer stores an eventId once against the whole log —
// not a recent window, not a set that dies with the process (issue 24). Log pages keep no
// per-event marker (a marker per event would cost a write unit each), so the index is kept
// beside the log instead: per log position, a 64-bit fingerprint of the entry's eventId and a
// 32-bit fingerprint of what it says (`content`: what the decider says an observation says — its
// object, never its stamps, so a relist of an unchanged version is the same content; a decision's
// is 0). 12 bytes per entry.
//
// - Same eventId, same content: a duplicate, not logged.
// - Same eventId, another content fingerprint: the stored entry is read back and both contents
//   compared exactly (SHA-256 of their canonical JSON), so neither a fingerprint collision nor a
//   key order is taken for a conflict. Equal: a duplicate. Different: a conflicting duplicate.
//   The first body stays; the writer logs an `ObservationRefused` in its place (with both
//   SHA-256) and refuses it with the reason.
// - A new eventId whose 64-bit fingerprint and content fingerprint both equal a logged entry's
//   would be taken for a duplicate: about 2^-96 per event.
//
// The writer keeps the index warm with its state; it saves the positions a snapshot covers as
// segments (PodArchive.saveEventIds) and a cold load reads them back, then the tail after the
// snapshot, and reads the log itself for any positions no segment covers (a log written before
// the index existed, or a save a crash lost).

/** Bytes per log position in a segment: eventId fingerprint (8), content fingerprint (4). */
export const FINGERPRINT_BYTES = 12;

/** The content fingerprint of a decision (its eventId is derived; an observation reusing one conflicts). */
export const DECISION_CONTENT = 0;

/** What a logged eventId is known by: its position and its content's fingerprint. */
export interface IndexedEntry {
  readonly seq: number;
  readonly content: number;
}

/** A run of positions `from + 1 … to` and their fingerprints, as stored. */
export interface EventIdSegment {
  readonly from: number;
  readonly to: number;
  readonly bytes: Uint8Array;
}

export class EventIdIndex {
  /** Fingerprints by position: seq s at (s - 1) × FINGERPRINT_BYTES. */
  #bytes: Uint8Array;
  #view: DataView;
  #through = 0;
  /**
   * Top 53 bits of the eventId fingerprint (a number key: no string built per lookup) → seq, or
   * seqs when different eventIds share them; lookups keep the seqs whose whole 64 bits match.
   */
  readonly #bySeq = new Map<number, number | number[]>();
  /** Positions saved as segments (1 … persisted). */
  persisted = 0;

  constructor(capacity = 64) {
    this.#bytes = new Uint8Array(capacity * FINGERPRINT_BYTES);
    this.#view = new DataView(this.#bytes.buffer);
  }

  /** The highest position indexed: every position 1 … through is. */
  get through(): number {
    return this.#through;
  }

  /** The logged entries whose eventId has the fingerprint of `eventId` (one, but for a collision). */
  lookup(eventId: string): IndexedEntry[] {
    const [hi, lo] = idFingerprint(eventId);
    const found = this.#bySeq.get(key(hi, lo));
    if (found === undefined) return [];
    const hits: IndexedEntry[] = [];
    for (const seq of typeof found === 'number' ? [found] : found) {
      const at = (seq - 1) * FINGERPRINT_BYTES;
      if (this.#view.getUint32(at) === hi && this.#view.getUint32(at + 4) === lo) hits.push({ seq, content: this.#view.getUint32(at + 8) });
    }
    return hits;
  }

  /** Indexes the entry at `through + 1`. */
  add(eventId: string, content: number): void {
    const [hi, lo] = idFingerprint(eventId);
    this.#put(this.#through + 1, hi, lo, content >>> 0);
  }

  /** Appends a stored segment's positions after `through`, up to `upTo`; a segment that starts past `through` leaves a gap and is refused. */
  addSegment(segment: EventIdSegment, upTo = segment.to): void {
    if (segment.from > this.#through) throw new RangeError(`event-id segment ${segment.from + 1}…${segment.to} leaves a gap after ${this.#through}`);
    const view = new DataView(segment.bytes.buffer, segment.bytes.byteOffset, segment.bytes.byteLength);
    for (let seq = this.#through + 1; seq <= Math.min(segment.to, upTo); seq++) {
      const at = (seq - segment.from - 1) * FINGERPRINT_BYTES;
      this.#put(seq, view.getUint32(at), view.getUint32(at + 4), view.getUint32(at + 8));
    }
  }

  /** Positions `from + 1 … to` as a segment to store. */
  segment(from: number, to: number): EventIdSegment {
    if (from < 0 || to > this.#through || from > to) throw new RangeError(`no event-id segment ${from + 1}…${to} in 1…${this.#through}`);
    return { from, to, bytes: this.#bytes.slice(from * FINGERPRINT_BYTES, to * FINGERPRINT_BYTES) };
  }

  /** Bytes held, for the writer's cache budget. */
  get bytes(): number {
    return this.#bytes.byteLength + this.#bySeq.size * 64;
  }

  #put(seq: number, hi: number, lo: number, content: number): void {
    if (seq !== this.#through + 1) throw new RangeError(`event-id index: position ${seq} after ${this.#through}`);
    this.#grow(seq);
    const at = (seq - 1) * FINGERPRINT_BYTES;
    this.#view.setUint32(at, hi);
    this.#view.setUint32(at + 4, lo);
    this.#view.setUint32(at + 8, content);
    const k = key(hi, lo);
    const found = this.#bySeq.get(k);
    this.#bySeq.set(k, found === undefined ? seq : [...(typeof found === 'number' ? [found] : found), seq]);
    this.#through = seq;
  }

  #grow(seq: number): void {
    if (seq * FINGERPRINT_BYTES <= this.#bytes.byteLength) return;
    const grown = new Uint8Array(Math.max(seq * FINGERPRINT_BYTES, this.#bytes.byteLength * 2));
    grown.set(this.#bytes);
    this.#bytes = grown;
    this.#view = new DataView(grown.buffer);
  }
}

/**
 * The 32-bit fingerprint of what an observation says (the decider's `content`), over its JSON as
 * parsed (not canonical: five times cheaper on the write path). The same event parses to the same
 * JSON; a content that differs only in key order gets another fingerprint and is then compared
 * exactly (`contentHash`, canonical) before anything is called a conflict.
 */
export function contentFingerprint(content: unknown): number {
  return fnv1a32(JSON.stringify(content));
}

/** The SHA-256 (hex) of what an observation (or a decision's whole body) says, as a conflict is recorded. */
export function contentHash(content: unknown): string {
  return sha256(canonicalJson(content));
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');


/** The map key of a fingerprint: its top 53 bits, a safe integer. */
const key = (hi: number, lo: number): number => hi * 2 ** 21 + (lo >>> 11);

/** Two independent 32-bit lanes (FNV-1a and a murmur-style mix) over the UTF-16 code units. */
function idFingerprint(text: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9747b28c ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 13;
  }
  b = Math.imul(b ^ (b >>> 15), 0x2c1b3c6d);
  b ^= b >>> 12;
  return [a >>> 0, b >>> 0];
}

function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
