import type { StreamId } from '../log/event-store.ts';
import { checkEnvelope, parseInbound, type InboundError, type InboundTarget } from './parse-inbound.ts';
import { decodePack, PACKABLE_DETAIL_TYPES, PACKED_DETAIL_TYPE } from './packed-observations.ts';
import { owningJobSetUid } from './routing.ts';

/** An observation of a pack that was refused on its own, as the event it would have been alone. */
export interface RefusedObservation {
  readonly event: unknown;
  readonly errors: readonly InboundError[];
}

/**
 * What one inbound event (single or a pack) adds: `primary`, entries for one log in order (a
 * single event's one entry, or a pack's valid observations), `related`, entries for other logs
 * (a child Job's deletion for its JobSet, a pod another Job adopted for the Job that created it),
 * and `refused`, a pack's observations refused alone.
 */
export type InboundRecordResult =
  | {
    readonly ok: true;
    readonly primary: readonly InboundTarget[];
    readonly related: readonly InboundTarget[];
    readonly refused: readonly RefusedObservation[];
    /** A pack's JSON once decompressed (bytes): what it makes the writer hold. */
    readonly decodedBytes?: number;
  }
  | { readonly ok: false; readonly errors: readonly InboundError[] };

/**
 * Parses an inbound event as the ingest stream delivers it: a single event (parseInbound) or
 * a `Pod Observations` pack. Each observation of a pack is validated as if it had come alone; a
 * bad one is refused with its reasons and the others are kept. A pack that cannot be decoded, or
 * whose observations belong to another Job (partition key) than the pack, is refused as a whole.
 */
export function parseInboundRecord(event: unknown): InboundRecordResult {
  if ((event as { 'detail-type'?: unknown } | null)?.['detail-type'] !== PACKED_DETAIL_TYPE) {
    const parsed = parseInbound(event);
    if (!parsed.ok) return parsed;
    const [primary, ...related] = parsed.targets;
    return { ok: true, primary: primary ? [primary] : [], related, refused: [] };
  }
  const checked = checkEnvelope(event, [PACKED_DETAIL_TYPE]);
  if (!checked.ok) return checked;
  const pack = decodePack(checked.detail);
  if (!pack.ok) return pack;
  const { partitionKey, items } = pack;
  const at = (i: number, path: string) => `detail.observations[${i}]${path}`;
  for (const [i, item] of items.entries()) {
    const key = (item as { detail?: { partitionKey?: unknown } } | null)?.detail?.partitionKey;
    if (key !== undefined && key !== partitionKey) {
      return refuseAll(at(i, '.detail.partitionKey'), `is ${JSON.stringify(key)}, the pack's is "${partitionKey}": a pack holds the observations of one Job`);
    }
  }
  const { source, account, region, time } = event as Record<string, unknown>;
  const primary: InboundTarget[] = [];
  const related: InboundTarget[] = [];
  const refused: RefusedObservation[] = [];
  for (const [i, item] of items.entries()) {
    const { 'detail-type': detailType, detail } = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    const alone = { source, 'detail-type': detailType, account, region, time, detail };
    if (typeof detailType !== 'string' || !PACKABLE_DETAIL_TYPES.includes(detailType)) {
      const message = `a pack holds ${PACKABLE_DETAIL_TYPES.map((t) => `"${t}"`).join(' and ')} observations, not ${JSON.stringify(detailType ?? null)}`;
      refused.push({ event: alone, errors: [{ path: 'detail-type', message }] });
      continue;
    }
    const parsed = parseInbound(alone);
    if (!parsed.ok) {
      refused.push({ event: alone, errors: parsed.errors });
      continue;
    }
    const [target, ...others] = parsed.targets;
    if (!target) continue;
    // Keyed by its Job, or by the Job's JobSet (the forwarder keys a JobSet's Jobs by the JobSet).
    const jobSet = owningJobSetUid((detail as { object?: { metadata?: Parameters<typeof owningJobSetUid>[0] } } | undefined)?.object?.metadata);
    if (target.stream.uid !== partitionKey && jobSet !== partitionKey) {
      return refuseAll(at(i, '.detail.object.metadata.ownerReferences'), `names Job "${target.stream.uid}", the pack's partitionKey is "${partitionKey}": a pack holds the observations of one Job`);
    }
    if (primary[0] && primary[0].stream.uid !== target.stream.uid) {
      return refuseAll(at(i, '.detail.object.metadata.ownerReferences'), `names Job "${target.stream.uid}", the pack's first observation's is "${primary[0].stream.uid}": a pack holds the observations of one Job`);
    }
    if (primary[0] && !sameStream(primary[0].stream, target.stream)) {
      return refuseAll(at(i, '.detail.object.metadata.namespace'), `is "${target.stream.namespace}", the pack's first observation's is "${primary[0].stream.namespace}": a pack holds the observations of one Job`);
    }
    primary.push(target);
    related.push(...others);
  }
  return { ok: true, primary, related, refused, decodedBytes: pack.decodedBytes };
}

/** Whether two logs are one (their streamKeys are equal: each part is encoded alone, so part by part). */
const sameStream = (a: StreamId, b: StreamId): boolean =>
  a.uid === b.uid && a.namespace === b.namespace && a.clusterId === b.clusterId && a.kind === b.kind;

const refuseAll = (path: string, message: string): InboundRecordResult => ({ ok: false, errors: [{ path, message }] });
