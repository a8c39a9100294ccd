import { PutEventsCommand, type EventBridgeClient } from '@aws-sdk/client-eventbridge';
import type { RejectionSink } from '../../shared/ports.ts';
import { fitRejection } from './fit-rejection.ts';

export const REJECTION_SOURCE = 'jobfold.ingest';
export const REJECTION_DETAIL_TYPE = 'Inbound Event Rejected';
/**
 * Sends a refused event, with its reasons, to the bus as `Inbound Event Rejected`; a rule
 * routes those to the rejected-events queue (the dead-letter destination), where an operator
 * can read why. The whole rejection is cut to fit one entry (fitRejection), and says so.
 */
export function busRejectionSink(client: Pick<EventBridgeClient, 'send'>, busName: string): RejectionSink {
  return {
    async reject(event, errors) {
      const detail = fitRejection(originalText(event), errors);
      const output = await client.send(
        new PutEventsCommand({
          Entries: [{ EventBusName: busName, Source: REJECTION_SOURCE, DetailType: REJECTION_DETAIL_TYPE, Detail: detail }],
        }),
      );
      if ((output.FailedEntryCount ?? 0) > 0) {
        throw new Error(`could not record the rejection: ${output.Entries?.[0]?.ErrorCode}`);
      }
    },
  };
}

/** The event as text: as it arrived when it is text, else its JSON (which a hostile depth may deny). */
function originalText(event: unknown): string {
  if (typeof event === 'string') return event;
  try {
    return JSON.stringify(event) ?? String(event);
  } catch (error) {
    return `(the original could not be written as JSON: ${(error as Error).message})`;
  }
}
