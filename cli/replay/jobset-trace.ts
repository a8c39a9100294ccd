import type { StreamId } from '../../shared/log/event-store.ts';
import { parseInbound, type InboundTarget } from '../../shared/contract/parse-inbound.ts';
import { isJobSetDetailType } from '../../shared/contract/inbound.ts';
import { formatProblem, type JsonlProblem } from '../../shared/contract/jsonl-trace.ts';
import { EXIT_BAD_INPUT, ReplayError } from './replay-error.ts';

// A JobSet trace: JSONL, one inbound event per line — a PutEvents entry as the cluster
// forwarders send it ({"Source", "DetailType", "Detail": "<json>"}) or the event as EventBridge
// delivers it ({"source", "detail-type", "detail"}) — with `JobSet Observed` / `JobSet Deleted`
// lines and the JobSet's child Jobs and their pods. Every line is checked by the service's own
// parser (shared/contract/parse-inbound.ts), so a trace replays exactly when the service
// would accept it.

/** An event as ingest takes it (the EventBridge delivery shape). */
export interface InboundEvent {
  readonly source: string;
  readonly 'detail-type': string;
  readonly detail: unknown;
}

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
  readonly lineCount: number;
  /** The JobSet's log: named by its own events or by its child Jobs' owner reference. */
  readonly jobSet: StreamId | undefined;
}

/** The most problems reported at once; more only bury the first. */
const MAX_PROBLEMS = 20;

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
      problems.push({ line, path: read.path, message: read.message });
      continue;
    }
    const rename = read.entry ? entryPath : (path: string) => path;
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
  if (problems.length > 0) {
    const shown = problems.slice(0, MAX_PROBLEMS).map((problem) => formatProblem(file, problem));
    const more = problems.length - shown.length;
    throw new ReplayError([...shown, ...(more > 0 ? [`… and ${more} more`] : [])].join('\n'), EXIT_BAD_INPUT);
  }
  return { lines, lineCount: text.split('\n').length - (text.endsWith('\n') ? 1 : 0), jobSet };
}

type ReadLine =
  | { readonly ok: true; readonly event: InboundEvent; readonly entry: boolean }
  | { readonly ok: false; readonly path: string; readonly message: string };

/** One line as an inbound event: a PutEvents entry (Detail is JSON text) or a delivered event. */
function readLine(raw: string): ReadLine {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { ok: false, path: '', message: `not valid JSON: ${(error as Error).message}` };
  }
  if (!isRecord(value)) return { ok: false, path: '', message: 'expected a JSON object' };
  if ('Source' in value || 'DetailType' in value || 'Detail' in value) {
    for (const field of ['Source', 'DetailType', 'Detail'] as const) {
      if (typeof value[field] !== 'string') return { ok: false, path: field, message: 'expected a string' };
    }
    let detail: unknown;
    try {
      detail = JSON.parse(value['Detail'] as string);
    } catch (error) {
      return { ok: false, path: 'Detail', message: `not valid JSON: ${(error as Error).message}` };
    }
    const event = { source: value['Source'] as string, 'detail-type': value['DetailType'] as string, detail };
    return { ok: true, event, entry: true };
  }
  if ('source' in value || 'detail-type' in value || 'detail' in value) {
    return { ok: true, event: value as unknown as InboundEvent, entry: false };
  }
  const message =
    'a JobSet trace takes inbound events only: PutEvents entries ("Source", "DetailType", "Detail") or EventBridge events ("source", "detail-type", "detail")';
  return { ok: false, path: 'type' in value ? 'type' : '', message };
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

/** The service's paths (`detail.object.x`) as the PutEvents entry spells them (`Detail.object.x`). */
function entryPath(path: string): string {
  if (path === 'source') return 'Source';
  if (path === 'detail-type') return 'DetailType';
  return path.replace(/^detail(?=$|\.|\[)/, 'Detail');
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
