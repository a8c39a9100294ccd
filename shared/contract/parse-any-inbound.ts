import type { NewEntry } from '../log/event-store.ts';
import { observationEntry } from '../job/log-codec.ts';
import { inboundDetailSchemas, type InboundDetailType } from './inbound.ts';
import { checkEnvelope, toObservation, type InboundError } from './parse-inbound.ts';
import { childJobDeletion, isJobSetDetailType, jobSetDetailSchemas, parseJobSetInbound } from './parse-jobset-inbound.ts';
import { creatorJobUid, type StreamKey } from './routing.ts';
import { utf8Bytes } from '../k8s/bounded-text.ts';

/** Where one inbound event goes: one entry per log it concerns. */
export interface InboundTarget {
  readonly stream: StreamKey;
  readonly entry: NewEntry;
}

export type AnyInboundResult =
  | { readonly ok: true; readonly targets: readonly InboundTarget[] }
  | { readonly ok: false; readonly errors: readonly InboundError[] };

export const ALL_DETAIL_TYPES = [...Object.keys(inboundDetailSchemas), ...Object.keys(jobSetDetailSchemas)];

/**
 * Every inbound event the service accepts — Job and Pod events for the Job's log, JobSet events
 * for the JobSet's log, a child Job's deletion also for its JobSet's log, and a pod another Job
 * controls now also for the log of the Job that created it.
 */
export function parseAnyInbound(event: unknown): AnyInboundResult {
  const checked = checkEnvelope(event, ALL_DETAIL_TYPES);
  if (!checked.ok) return checked;
  if (isJobSetDetailType(checked.detailType)) {
    const e = event as { source: string; 'detail-type': string; detail: unknown };
    const parsed = parseJobSetInbound(e);
    if (!parsed.ok) return parsed;
    const oversized = checkStreamKey(parsed.stream);
    return oversized ? { ok: false, errors: [oversized] } : { ok: true, targets: [{ stream: parsed.stream, entry: parsed.entry }] };
  }
  const parsed = toObservation(checked.clusterId, checked.detailType as InboundDetailType, checked.detail);
  if (!parsed.ok) return parsed;
  const oversized = checkStreamKey(parsed.stream);
  if (oversized) return { ok: false, errors: [oversized] };
  const targets: InboundTarget[] = [{ stream: parsed.stream, entry: observationEntry(parsed.observation) }];
  const creator = parsed.observation.type === 'PodObserved' ? creatorJobUid(parsed.observation.pod) : undefined;
  // The Job that created the pod is told it is another's now (routing.ts). A uid no Job can have
  // (over 128 bytes) names no log to tell.
  const creatorStream = creator === undefined ? undefined : { ...parsed.stream, uid: creator };
  if (creatorStream && !checkStreamKey(creatorStream) && parsed.observation.type === 'PodObserved') {
    targets.push({ stream: creatorStream, entry: observationEntry({ ...parsed.observation, controlledBy: parsed.stream.uid }) });
  }
  const child = parsed.observation.type === 'JobDeleted' ? childJobDeletion(checked.clusterId, checked.detail) : undefined;
  if (child) {
    const childOversized = checkStreamKey(child.stream);
    if (childOversized) return { ok: false, errors: [{ ...childOversized, path: 'detail.object.metadata.ownerReferences (JobSet uid)' }] };
    targets.push(child);
  }
  return { ok: true, targets };
}

/**
 * The parts of a log's key, bounded in UTF-8 bytes so that the key, however encoded, fits the
 * store's partition key: namespace a DNS label (63), uid as the API server writes it (128). The
 * owning Job's uid may come from a label, which the schema bounds only at 65536.
 */
const STREAM_KEY_PART_BYTES = { namespace: 63, uid: 128 } as const;

function checkStreamKey(stream: StreamKey): InboundError | undefined {
  for (const [part, max] of Object.entries(STREAM_KEY_PART_BYTES) as [keyof typeof STREAM_KEY_PART_BYTES, number][]) {
    const bytes = utf8Bytes(stream[part]);
    if (bytes > max) {
      const field = part === 'uid' ? 'detail.object.metadata (owning uid)' : 'detail.object.metadata.namespace';
      return { path: field, message: `the ${stream.kind}'s ${part} is ${bytes} bytes of UTF-8; at most ${max} allowed` };
    }
  }
  return undefined;
}
