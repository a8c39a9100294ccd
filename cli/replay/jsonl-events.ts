import { InboundDetailType } from '../../shared/contract/inbound.ts';
import { parseInbound, type InboundTarget } from '../../shared/contract/parse-inbound.ts';
import type { JsonlProblem } from '../../shared/contract/jsonl-trace.ts';
import { ObservationSchema, type Observation } from '../../shared/job/index.ts';
import { formatPath } from './field-path.ts';
import { readInboundEvent, type InboundLine, type LineProblem } from './put-events-entry.ts';

// The JSONL input of `jobfold replay` for a Job: one event per line, either an observation in
// the fold's own shape or an inbound event of the service, as a PutEvents entry or as delivered
// by EventBridge (see REPLAY_HELP and put-events-entry.ts).

/** An observation and the (1-based) file line it came from. */
export interface JsonlEvent {
  readonly line: number;
  readonly observation: Observation;
}

export type JsonlResult =
  | { readonly ok: true; readonly events: readonly JsonlEvent[] }
  | { readonly ok: false; readonly problems: readonly JsonlProblem[] };

/** One JSONL line, parsed: the observation, or what is wrong (field path and message). */
export type LineResult =
  | {
      readonly ok: true;
      readonly observation: Observation;
      /** The Job whose log the event belongs to, when the line says (inbound events do). */
      readonly jobUid?: string;
    }
  | { readonly ok: false; readonly problems: readonly LineProblem[] };

/** Parses a whole JSONL text; blank lines are skipped. All problems are reported, in line order. */
export function parseJsonlEvents(text: string): JsonlResult {
  const events: JsonlEvent[] = [];
  const problems: JsonlProblem[] = [];
  let jobUid: string | undefined;
  for (const [i, raw] of text.split('\n').entries()) {
    const line = i + 1;
    if (raw.trim() === '') continue;
    const result = parseJsonlLine(raw);
    if (!result.ok) {
      problems.push(...result.problems.map((p) => ({ line, ...p })));
      continue;
    }
    const observation = result.observation;
    // One stream is one Job's log: a second Job would silently mix two histories.
    const uid = result.jobUid ?? (observation.type === 'JobObserved' ? observation.job.metadata.uid : undefined);
    if (uid !== undefined && jobUid !== undefined && uid !== jobUid) {
      problems.push({ line, path: ownerPath(raw, observation.type), message: `another Job (uid ${uid}); this stream is Job ${jobUid}` });
    }
    jobUid ??= uid;
    events.push({ line, observation });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, events };
}

/** Parses one line: a fold observation (`type`), a PutEvents entry (`DetailType`) or a delivered event (`detail-type`). */
export function parseJsonlLine(text: string): LineResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return lineFailure('', `not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return lineFailure('', 'expected a JSON object');
  const inbound = readInboundEvent(value);
  if (inbound !== undefined) return fromInbound(inbound);
  if (!('type' in value)) {
    return lineFailure(
      'type',
      'missing: expected an observation ("type": "PodObserved", …), a PutEvents entry ("Source", "DetailType", "Detail") or an EventBridge event ("source", "detail-type", "detail")',
    );
  }
  const observation = ObservationSchema.safeParse(value);
  if (observation.success) return { ok: true, observation: observation.data };
  return { ok: false, problems: observation.error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message })) };
}

/** A Job's JSONL takes Job and Pod events (a JobSet trace is read by jobset-trace.ts). */
const JOB_DETAIL_TYPES = Object.values(InboundDetailType);

/** An inbound event as the Job's observation, read by the service's parser. */
function fromInbound(inbound: InboundLine): LineResult {
  if (!inbound.ok) return inbound;
  const result = parseInbound(inbound.event, JOB_DETAIL_TYPES);
  if (!result.ok) return { ok: false, problems: result.errors.map((error) => ({ path: inbound.rename(error.path), message: error.message })) };
  // The first target is the Job's own log (another is the log of a Job the pod was taken from,
  // not replayed here); its entry's body is the observation the parser built (log-codec.ts).
  const [own] = result.targets as [InboundTarget];
  return { ok: true, observation: own.entry.body as Observation, jobUid: own.stream.uid };
}

const lineFailure = (path: string, message: string): LineResult => ({ ok: false, problems: [{ path, message }] });

/** Where a line names its Job, spelled the way the line is. */
function ownerPath(raw: string, type: Observation['type']): string {
  const detail = raw.includes('"DetailType"') ? 'Detail' : raw.includes('"detail-type"') ? 'detail' : undefined;
  if (detail === undefined) return 'job.metadata.uid';
  return type === 'JobObserved' || type === 'JobDeleted' ? `${detail}.object.metadata.uid` : `${detail}.object.metadata.ownerReferences`;
}
