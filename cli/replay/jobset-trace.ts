import type { StreamId } from '../../shared/log/event-store.ts';
import { parseInbound, type InboundTarget } from '../../shared/contract/parse-inbound.ts';
import { isJobSetDetailType } from '../../shared/contract/inbound.ts';
import type { JsonlProblem } from '../../shared/contract/jsonl-trace.ts';
import { readInboundEvent, type InboundEvent, type InboundLine } from './put-events-entry.ts';
import { problemsError } from './replay-error.ts';

// A JobSet trace: JSONL, one inbound event per line — a PutEvents entry as the cluster
// forwarders send it ({"Source", "DetailType", "Detail": "<json>"}) or the event as EventBridge
// delivers it ({"source", "detail-type", "detail"}) — with `JobSet Observed` / `JobSet Deleted`
// lines and the JobSet's child Jobs and their pods. Every line is checked by the service's own
// parser (shared/contract/parse-inbound.ts), so a trace replays exactly when the service
// would accept it.

export interface TraceLine {
  /** 1-based file line. */
  readonly line: number;
  readonly event: InboundEvent;
  readonly observedAt: string;
  /** The logs the event goes to (its Job's or JobSet's, and a deleted child Job's JobSet). */
  readonly targets: readonly InboundTarget[];
}

export interface JobSetTrace {
  readonly lines: readonly TraceLine[];
  /** The JobSet's log: named by its own events or by its child Jobs' owner reference. */
  readonly jobSet: StreamId | undefined;
}

/** True when some line is a `JobSet Observed` or `JobSet Deleted` event. */
export function isJobSetTrace(text: string): boolean {
  return text.split('\n').some((raw) => {
    if (!raw.includes('JobSet')) return false;
    const value = tryParse(raw);
    return isRecord(value) && (isJobSetDetailType(value['DetailType']) || isJobSetDetailType(value['detail-type']));
  });
}

/** Parses a trace; every problem is reported as `FILE:LINE: field: message` in one ReplayError. */
export function parseJobSetTrace(file: string, text: string): JobSetTrace {
  const lines: TraceLine[] = [];
  const problems: JsonlProblem[] = [];
  let jobSet: StreamId | undefined;
  for (const [i, raw] of text.split('\n').entries()) {
    const line = i + 1;
    if (raw.trim() === '') continue;
    const read = readLine(raw);
    if (!read.ok) {
      problems.push(...read.problems.map((problem) => ({ line, ...problem })));
      continue;
    }
    const { rename } = read;
    const parsed = parseInbound(read.event);
    if (!parsed.ok) {
      problems.push(...parsed.errors.map((error) => ({ line, path: rename(error.path), message: error.message })));
      continue;
    }
    const owner = ownerOf(read.event, parsed.targets);
    if (owner !== undefined && jobSet !== undefined && owner.stream.uid !== jobSet.uid) {
      const message = `another JobSet (uid ${owner.stream.uid}); this trace is JobSet ${jobSet.uid}`;
      problems.push({ line, path: rename(owner.path), message });
      continue;
    }
    jobSet ??= owner?.stream;
    const observedAt = (read.event.detail as { observedAt: string }).observedAt;
    lines.push({ line, event: read.event, observedAt, targets: parsed.targets });
  }
  if (problems.length > 0) throw problemsError(file, problems);
  return { lines, jobSet };
}

/** One line as an inbound event: a PutEvents entry (Detail is JSON text) or a delivered event. */
function readLine(raw: string): InboundLine {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { ok: false, problems: [{ path: '', message: `not valid JSON: ${(error as Error).message}` }] };
  }
  if (!isRecord(value)) return { ok: false, problems: [{ path: '', message: 'expected a JSON object' }] };
  const message =
    'a JobSet trace takes inbound events only: PutEvents entries ("Source", "DetailType", "Detail") or EventBridge events ("source", "detail-type", "detail")';
  return readInboundEvent(value) ?? { ok: false, problems: [{ path: 'type' in value ? 'type' : '', message }] };
}

/** The JobSet a line belongs to: its own stream, or the JobSet owning the Job it reports. */
function ownerOf(event: InboundEvent, targets: readonly InboundTarget[]): { stream: StreamId; path: string } | undefined {
  const jobSetTarget = targets.find((target) => target.stream.kind === 'JobSet');
  if (isJobSetDetailType(event['detail-type'])) return jobSetTarget && { stream: jobSetTarget.stream, path: 'detail.object.metadata.uid' };
  // A child Job's deletion goes to its JobSet's log too.
  if (jobSetTarget !== undefined) return { stream: jobSetTarget.stream, path: 'detail.object.metadata.ownerReferences' };
  const job = targets.find((target) => target.stream.kind === 'Job');
  if (job === undefined || !event['detail-type'].startsWith('Job ')) return undefined;
  type Owned = { object?: { metadata?: { ownerReferences?: readonly { kind: string; uid: string }[] } } };
  const reference = (event.detail as Owned).object?.metadata?.ownerReferences?.find((r) => r.kind === 'JobSet');
  if (reference === undefined) return undefined;
  const stream: StreamId = { kind: 'JobSet', clusterId: job.stream.clusterId, namespace: job.stream.namespace, uid: reference.uid };
  return { stream, path: 'detail.object.metadata.ownerReferences' };
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
