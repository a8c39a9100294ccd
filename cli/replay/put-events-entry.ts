import * as z from 'zod';
import { formatPath } from './field-path.ts';

// The service's inbound events, in the two shapes they take on the way:
// - a PutEvents entry, as a cluster forwarder sends it:
//     {"Source": "jobfold.cluster.<clusterId>", "DetailType": "Pod Observed" | "Pod Deleted" |
//      "Job Observed" | "Job Deleted" | "JobSet Observed" | …, "Detail": "{\"eventId\", \"observedAt\", \"object\"}"}
//   (Detail is a JSON string, as PutEvents takes it);
// - the event as EventBridge delivers it to a target: {"source", "detail-type", "detail": {…}}.
// Both kinds' JSONL (a Job's stream, a JobSet's trace) read their lines here and hand the event
// to the service's own parser (shared/contract), so a line replays exactly when the service
// would accept it: same schemas, same limits, same routing to the owning Job or JobSet.

/** An event as ingest takes it (the EventBridge delivery shape). */
export interface InboundEvent {
  readonly source: string;
  readonly 'detail-type': string;
  readonly detail: unknown;
}

/** What is wrong with a line: the field as the line spells it, and why. */
export interface LineProblem {
  readonly path: string;
  readonly message: string;
}

/** A line read as an inbound event, with the service's paths renamed the way the line spells them. */
export type InboundLine =
  | { readonly ok: true; readonly event: InboundEvent; readonly rename: (path: string) => string }
  | { readonly ok: false; readonly problems: readonly LineProblem[] };

const PutEventsEntrySchema = z.object({
  Source: z.string(),
  DetailType: z.string(),
  Detail: z.string(),
  EventBusName: z.string().optional(),
  Time: z.string().optional(),
  Resources: z.array(z.string()).optional(),
});

/** A JSON object as an inbound event: a PutEvents entry or a delivered event; undefined when it is neither. */
export function readInboundEvent(value: object): InboundLine | undefined {
  if ('Source' in value || 'DetailType' in value || 'Detail' in value) return fromPutEventsEntry(value);
  if ('source' in value || 'detail-type' in value || 'detail' in value) return { ok: true, event: value as InboundEvent, rename: same };
  return undefined;
}

/** A PutEvents entry as the delivered event it becomes (its Detail parsed). */
function fromPutEventsEntry(value: object): InboundLine {
  const entry = PutEventsEntrySchema.safeParse(value);
  if (!entry.success) return { ok: false, problems: entry.error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message })) };
  const { Source, DetailType, Detail } = entry.data;
  let detail: unknown;
  try {
    detail = JSON.parse(Detail);
  } catch (error) {
    return { ok: false, problems: [{ path: 'Detail', message: `not valid JSON: ${(error as Error).message}` }] };
  }
  return { ok: true, event: { source: Source, 'detail-type': DetailType, detail }, rename: entryPath };
}

const same = (path: string): string => path;

/** The service's paths (`detail.object.x`) as the PutEvents entry spells them (`Detail.object.x`). */
function entryPath(path: string): string {
  if (path === 'source') return 'Source';
  if (path === 'detail-type') return 'DetailType';
  return path.replace(/^detail(?=$|\.|\[)/, 'Detail');
}
