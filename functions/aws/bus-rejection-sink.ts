import { PutEventsCommand, type EventBridgeClient } from '@aws-sdk/client-eventbridge';
import type { RejectionSink } from '../../shared/app/ingest.ts';

export const REJECTION_SOURCE = 'jobfold.ingest';
export const REJECTION_DETAIL_TYPE = 'Inbound Event Rejected';
/** Keep the rejection under EventBridge's 256 KiB entry limit: the original is cut. */
const MAX_ORIGINAL_CHARS = 200_000;

/**
 * Sends a refused event, with its reasons, to the bus as `Inbound Event Rejected`; a rule
 * routes those to the rejected-events queue (the dead-letter destination), where an operator
 * can read why. An oversized original is truncated, and says so.
 */
export function busRejectionSink(client: Pick<EventBridgeClient, 'send'>, busName: string): RejectionSink {
  return {
    async reject(event, errors) {
      const original = typeof event === 'string' ? event : JSON.stringify(event);
      const truncated = original.length > MAX_ORIGINAL_CHARS;
      const detail = {
        errors,
        reason: errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; '),
        truncated,
        original: truncated ? original.slice(0, MAX_ORIGINAL_CHARS) : original,
      };
      const output = await client.send(
        new PutEventsCommand({
          Entries: [{ EventBusName: busName, Source: REJECTION_SOURCE, DetailType: REJECTION_DETAIL_TYPE, Detail: JSON.stringify(detail) }],
        }),
      );
      if ((output.FailedEntryCount ?? 0) > 0) {
        throw new Error(`could not record the rejection: ${output.Entries?.[0]?.ErrorCode}`);
      }
    },
  };
}
