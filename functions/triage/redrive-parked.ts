import { triageUndeliveredEvent } from './undelivered-event.ts';
import type { ParkedCode, ParkedMessage } from '../../shared/contract/dead-letters.ts';
import type { ParkedQueue, RecordPutter } from '../../shared/ports.ts';

// `jobfold admin redrive` (issue 24): what the triage parked is sent through the writer's code
// again once the operator fixed the cause. A parked record (`WriteFailed`, `RedriveFailed`)
// is judged by the writer's own validation (undelivered-event.ts) and put back into the ingest
// stream under its Job's key: the writer Lambda writes it like any record, and drops what the
// Job's log already holds (the eventId index covers the whole log), so a record redriven twice
// — a rerun, a crash between the put and the delete — is stored once: exactly once in effect.
// A message is deleted from the parked queue only after its record is in the stream. What
// cannot be redriven this way stays in the queue, counted by its code, with what to do.

export type RedriveVerdict =
  /** Put back into the ingest stream (a dry run: would be), then deleted from the queue. */
  | 'redriven'
  /** The writer's validation refuses it: left in the queue with the reasons. */
  | 'refused'
  /** Not a record this command redrives (its code says what to do instead): left. */
  | 'left'
  /** The put failed: left for a later run. */
  | 'failed';

export interface RedriveLine {
  readonly id: string;
  readonly code: string;
  readonly verdict: RedriveVerdict;
  readonly detail: string;
}

export interface RedriveSummary {
  readonly dryRun: boolean;
  readonly messages: number;
  readonly counts: Readonly<Record<RedriveVerdict, number>>;
  readonly lines: readonly RedriveLine[];
}

/** What to do with a parked message this command does not redrive, by its code (docs/deploy.md, "Dead letters"). */
const LEFT_BECAUSE: Readonly<Record<Exclude<ParkedCode, 'WriteFailed' | 'RedriveFailed'>, string>> = {
  ReadFailed: 'a batch description, not a record: send `original` to the writer-failures queue within the stream\'s 7 days',
  RangeExpired: 'the stream no longer holds those records: the Job\'s later observations carry its state',
  RejectionUndelivered: 'a refusal, not a record: read it as a rejection',
  Unrecognised: 'neither a record nor a batch description: read it',
};

export async function redriveParked(ports: { readonly queue: ParkedQueue; readonly stream: RecordPutter }, options: { readonly dryRun: boolean }): Promise<RedriveSummary> {
  const lines: RedriveLine[] = [];
  const leftInQueue: ParkedMessage[] = [];
  for (let batch = await ports.queue.receive(); batch.length > 0; batch = await ports.queue.receive()) {
    for (const message of batch) {
      const line = await redriveOne(message, ports.stream, options.dryRun);
      lines.push(line);
      if (line.verdict === 'redriven' && !options.dryRun) await ports.queue.delete(message);
      else leftInQueue.push(message);
    }
  }
  // Released only at the end: released earlier, a message would be received again in this run.
  for (const message of leftInQueue) await ports.queue.release(message);
  const counts = { redriven: 0, refused: 0, left: 0, failed: 0 };
  for (const line of lines) counts[line.verdict]++;
  return { dryRun: options.dryRun, messages: lines.length, counts, lines };
}

async function redriveOne(message: ParkedMessage, stream: RecordPutter, dryRun: boolean): Promise<RedriveLine> {
  const at = (code: string, verdict: RedriveVerdict, detail: string): RedriveLine => ({ id: message.id, code, verdict, detail });
  let body: { parked?: unknown; original?: unknown; truncated?: unknown };
  try {
    body = JSON.parse(message.body) as typeof body;
  } catch {
    return at('?', 'left', 'the body is not JSON: not a parked entry');
  }
  const code = typeof body?.parked === 'string' ? body.parked : '?';
  if (code !== 'WriteFailed' && code !== 'RedriveFailed') {
    return at(code, 'left', LEFT_BECAUSE[code as keyof typeof LEFT_BECAUSE] ?? 'not a parked entry of the triage: read it');
  }
  if (body.truncated === true || typeof body.original !== 'string') {
    return at(code, 'left', 'the record was cut to fit the message: read it whole from the ingest stream (SHARD_ID, SEQUENCE_NUMBER) while it holds it');
  }
  const decided = triageUndeliveredEvent(body.original, `parked (${code})`);
  if (decided.action === 'refuse') return at(code, 'refused', decided.errors.map((e) => `${e.path || '(event)'}: ${e.message}`).join('; '));
  if (decided.action === 'park') return at(code, 'left', decided.reason);
  if (dryRun) return at(code, 'redriven', `would be put into the ingest stream under key ${decided.partitionKey}`);
  try {
    await stream.put(decided.partitionKey, decided.data);
  } catch (error) {
    return at(code, 'failed', `PutRecord failed: ${(error as Error).message}`);
  }
  return at(code, 'redriven', `put into the ingest stream under key ${decided.partitionKey}`);
}

/** The summary as lines for a terminal: one per message, then the counts. */
export function formatRedrive(summary: RedriveSummary): string {
  const verb = summary.dryRun ? 'would be redriven' : 'redriven';
  const lines = summary.lines.map((l) => `${l.id}  ${l.code}  ${l.verdict === 'redriven' ? verb : l.verdict}: ${l.detail}`);
  const { redriven, refused, left, failed } = summary.counts;
  lines.push(`${summary.messages} parked messages: ${redriven} ${verb}, ${refused} refused by the writer's validation, ${left} left (not records this command redrives), ${failed} failed`
    + (summary.dryRun ? ' (dry run: nothing put, nothing deleted)' : ''));
  return lines.join('\n');
}
