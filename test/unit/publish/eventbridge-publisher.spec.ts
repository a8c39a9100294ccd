import type { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { describe, expect, it } from 'vitest';
import { entryBytes, eventBridgePublisher, MAX_BYTES_PER_PUT } from '../../../functions/aws/eventbridge-publisher.ts';
import { inProcessEventBridge } from '../../../local/bus/in-process-event-bridge.ts';
import { LocalBus } from '../../../local/bus/local-bus.ts';
import { CONTROL_SOURCE } from '../../../shared/contract/inbound.ts';
import type { OutboundEvent } from '../../../shared/contract/outbound.ts';

// PutEvents takes at most 10 entries and 256 KiB per call. The publisher's calls must fit both,
// or a call of ten large commands (a JobSet's CreateJob events carry whole Job templates) is
// refused as a whole on every retry and its outbox item never publishes. The bus here is the
// local one, which validates a call as EventBridge does (local/bus/put-events-request.ts).

const KiB = 1024;

/** A command whose detail is about `bytes` long (a CreateJob with a big pod template). */
const aCommand = (i: number, bytes: number): OutboundEvent => ({
  commandId: `c-${String(i).padStart(3, '0')}`,
  clusterId: 'c1',
  source: CONTROL_SOURCE,
  detailType: 'CreateJob',
  detail: { commandId: `c-${i}`, job: { spec: { template: { env: 'x'.repeat(bytes) } } } },
});

function aRecordedBus() {
  const bus = new LocalBus();
  const received: string[] = [];
  bus.subscribe((event) => received.push(String(event.detail['commandId'])));
  const calls: Array<{ entries: number; bytes: number }> = [];
  const inner = inProcessEventBridge(bus);
  const client = {
    send: async (command: PutEventsCommand) => {
      const entries = command.input.Entries ?? [];
      calls.push({ entries: entries.length, bytes: entries.reduce((sum, entry) => sum + entryBytes(entry), 0) });
      return inner.send(command);
    },
  } as unknown as Pick<EventBridgeClient, 'send'>;
  return { bus, received, calls, publisher: eventBridgePublisher(client, 'jobfold') };
}

describe('the publisher puts events in calls PutEvents takes', () => {
  it('given ten commands of 60 KiB, when they are sent in one call, then the bus refuses the call', () => {
    const bus = new LocalBus();
    const entries = Array.from({ length: 10 }, (_, i) => aCommand(i, 60 * KiB))
      .map((e) => ({ Source: e.source, DetailType: e.detailType, Detail: JSON.stringify(e.detail) }));
    expect(() => bus.putEvents({ Entries: entries })).toThrow(/Total size of the entries in the request is over the limit/);
  });

  it('given 20 commands of 60 KiB (1.2 MB, twice the calls 10 entries would make), when published, then every one arrives, in order', async () => {
    const { received, calls, publisher } = aRecordedBus();
    const events = Array.from({ length: 20 }, (_, i) => aCommand(i, 60 * KiB));
    expect(await publisher.publish(events)).toEqual({ failed: [] });
    expect(received).toEqual(events.map((e) => e.detail['commandId']));
    expect(calls.every((call) => call.entries <= 10 && call.bytes <= MAX_BYTES_PER_PUT)).toBe(true);
    expect(calls.map((call) => call.entries)).toEqual([4, 4, 4, 4, 4]);
  });

  it('given 25 small commands, when published, then they go ten to a call', async () => {
    const { received, calls, publisher } = aRecordedBus();
    const events = Array.from({ length: 25 }, (_, i) => aCommand(i, 100));
    expect(await publisher.publish(events)).toEqual({ failed: [] });
    expect(calls.map((call) => call.entries)).toEqual([10, 10, 5]);
    expect(received).toHaveLength(25);
  });

  it('given one command over 256 KiB among others, when published, then it alone is reported failed, with its size, and the others arrive', async () => {
    const { received, calls, publisher } = aRecordedBus();
    const events = [aCommand(0, 100), aCommand(1, 300 * KiB), aCommand(2, 100)];
    const { failed } = await publisher.publish(events);
    expect(failed).toEqual([{ commandId: 'c-001', error: expect.stringMatching(/^entry of \d+ bytes: PutEvents takes at most 262144 bytes per call$/) }]);
    expect(received).toEqual(['c-0', 'c-2']);
    expect(calls.every((call) => call.bytes <= MAX_BYTES_PER_PUT)).toBe(true);
  });
});
