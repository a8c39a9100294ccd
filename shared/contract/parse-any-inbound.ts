import type { NewEntry } from '../app/event-store.ts';
import { observationEntry } from '../app/log-codec.ts';
import { inboundDetailSchemas, type InboundDetailType } from './inbound.ts';
import { checkEnvelope, toObservation, type InboundError } from './parse-inbound.ts';
import { childJobDeletion, isJobSetDetailType, jobSetDetailSchemas, parseJobSetInbound } from './parse-jobset-inbound.ts';
import type { StreamKey } from './routing.ts';

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
 * for the JobSet's log, and a child Job's deletion also for its JobSet's log.
 */
export function parseAnyInbound(event: unknown): AnyInboundResult {
  const checked = checkEnvelope(event, ALL_DETAIL_TYPES);
  if (!checked.ok) return checked;
  if (isJobSetDetailType(checked.detailType)) {
    const e = event as { source: string; 'detail-type': string; detail: unknown };
    const parsed = parseJobSetInbound(e);
    return parsed.ok ? { ok: true, targets: [{ stream: parsed.stream, entry: parsed.entry }] } : parsed;
  }
  const parsed = toObservation(checked.clusterId, checked.detailType as InboundDetailType, checked.detail);
  if (!parsed.ok) return parsed;
  const targets: InboundTarget[] = [{ stream: parsed.stream, entry: observationEntry(parsed.observation) }];
  const child = parsed.observation.type === 'JobDeleted' ? childJobDeletion(checked.clusterId, checked.detail) : undefined;
  if (child) targets.push(child);
  return { ok: true, targets };
}
