import * as z from 'zod';
import { InboundDetailType } from '../../shared/contract/inbound.ts';
import { parseInbound, type InboundTarget } from '../../shared/contract/parse-inbound.ts';
import type { Observation } from '../../shared/job/index.ts';
import { issues, lineFailure, type LineResult } from './line-result.ts';

// The service's inbound events, in the two shapes they take on the way:
// - a PutEvents entry, as a cluster forwarder sends it:
//     {"Source": "jobfold.cluster.<clusterId>", "DetailType": "Pod Observed" | "Pod Deleted" |
//      "Job Observed" | "Job Deleted", "Detail": "{\"eventId\", \"observedAt\", \"object\"}"}
//   (Detail is a JSON string, as PutEvents takes it);
// - the event as EventBridge delivers it to a target: {"source", "detail-type", "detail": {…}}.
// Both are read by the service's own parser (shared/contract), so a line replays exactly when
// the service would accept it: same schemas, same limits, same routing to the owning Job.

const PutEventsEntrySchema = z.object({
  Source: z.string(),
  DetailType: z.string(),
  Detail: z.string(),
  EventBusName: z.string().optional(),
  Time: z.string().optional(),
  Resources: z.array(z.string()).optional(),
});

/** Maps a PutEvents entry to the observation the fold takes. */
export function fromPutEventsEntry(value: object): LineResult {
  const entry = PutEventsEntrySchema.safeParse(value);
  if (!entry.success) return issues(entry.error, (path) => path);
  const { Source, DetailType, Detail } = entry.data;
  let detail: unknown;
  try {
    detail = JSON.parse(Detail);
  } catch (error) {
    return lineFailure('Detail', `not valid JSON: ${(error as Error).message}`);
  }
  return fromDeliveredEvent({ source: Source, 'detail-type': DetailType, detail }, entryPath);
}

/** A Job trace takes Job and Pod events (a JobSet trace is read by jobset-trace.ts). */
const JOB_DETAIL_TYPES = Object.values(InboundDetailType);

/** Maps an event as delivered (`source`, `detail-type`, `detail`) to the observation. */
export function fromDeliveredEvent(event: unknown, rename: (path: string) => string = (path) => path): LineResult {
  const result = parseInbound(event, JOB_DETAIL_TYPES);
  if (!result.ok) {
    return { ok: false, problems: result.errors.map((error) => ({ path: rename(error.path), message: error.message })) };
  }
  // The first target is the Job's own log (another is the log of a Job the pod was taken from,
  // not replayed here); its entry's body is the observation the parser built (log-codec.ts).
  const [own] = result.targets as [InboundTarget];
  return { ok: true, observation: own.entry.body as Observation, jobUid: own.stream.uid };
}

/** The service's paths (`detail.object.x`) as the PutEvents entry spells them (`Detail.object.x`). */
function entryPath(path: string): string {
  if (path === 'source') return 'Source';
  if (path === 'detail-type') return 'DetailType';
  return path.replace(/^detail(?=$|\.|\[)/, 'Detail');
}
