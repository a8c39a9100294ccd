import type { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import type { LocalBus } from './local-bus.ts';

/**
 * An EventBridge client that puts events on the local bus in process, so the AWS adapters
 * (functions/aws/eventbridge-publisher.ts, bus-rejection-sink.ts) run unchanged: the publisher's
 * batching and retries, the rejection's shape. It understands PutEvents only.
 */
export function inProcessEventBridge(bus: LocalBus): Pick<EventBridgeClient, 'send'> {
  const send = async (command: PutEventsCommand) => {
    if (command.constructor.name !== 'PutEventsCommand') {
      throw new Error(`the local bus supports PutEvents only, not ${command.constructor.name}`);
    }
    // The SDK would send Time as epoch seconds; the bus takes the same.
    const entries = (command.input.Entries ?? []).map((entry) =>
      entry.Time === undefined ? entry : { ...entry, Time: entry.Time.getTime() / 1000 });
    return { ...bus.putEvents({ Entries: entries }), $metadata: {} };
  };
  // The client's `send` is overloaded for every command; this one implements the PutEvents overload.
  return { send } as unknown as Pick<EventBridgeClient, 'send'>;
}
