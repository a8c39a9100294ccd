import { EventBridgeClient, PutEventsCommand, type PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import { startLocalStack, type LocalStack } from '../local/local-stack.ts';
import type { RecordedEntry } from '../local/sample/trace-recorder.ts';

// What the end-to-end benches share: the local stack in this process (e2e.ts, whose latency is
// read off the bus as each command is published) with the real EventBridge SDK client pointed at
// it, and PutEvents of a recorded trace (e2e.ts, and service-path.ts against the service in its
// own process).

export interface BenchStack {
  readonly stack: LocalStack;
  readonly client: EventBridgeClient;
  stop(): Promise<void>;
}

export async function openBenchStack(name: string, dynamoDbEndpoint?: string): Promise<BenchStack> {
  const stack = await startLocalStack({
    port: 0,
    tableName: `bench-${name}-${Date.now()}`,
    ...(dynamoDbEndpoint ? { dynamoDbEndpoint } : {}),
  });
  const client = new EventBridgeClient({
    endpoint: stack.eventsUrl, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
  return {
    stack,
    client,
    async stop() {
      client.destroy();
      await stack.stop();
    },
  };
}

/**
 * Puts entries in calls of 10, `concurrency` calls at a time, reporting each accepted call's
 * size to `onPut`; throws on any failed entry. Entries are taken as calls go out, so a lazy
 * `entries` (a packer) is packed while the calls before are in flight.
 */
export async function putAll(
  client: EventBridgeClient,
  entries: Iterable<RecordedEntry>,
  concurrency: number,
  onPut: (count: number) => void = () => {},
): Promise<void> {
  const calls = callsOf(entries);
  const worker = async () => {
    // Generators are not re-entrant, but each next() runs to its end before a worker awaits.
    for (let next = calls.next(); !next.done; next = calls.next()) {
      const call = next.value;
      const output = await client.send(new PutEventsCommand({ Entries: call }));
      if ((output.FailedEntryCount ?? 0) > 0) throw new Error(`PutEvents failed: ${JSON.stringify(output.Entries)}`);
      onPut(call.length);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** At most 10 entries and 256 KiB a call, as EventBridge takes them (packs are big entries). */
function* callsOf(entries: Iterable<RecordedEntry>): Generator<PutEventsRequestEntry[]> {
  let call: PutEventsRequestEntry[] = [];
  let bytes = 0;
  for (const { Source, DetailType, Detail } of entries) {
    const size = Buffer.byteLength(Source) + Buffer.byteLength(DetailType) + Buffer.byteLength(Detail);
    if (call.length === 10 || (call.length > 0 && bytes + size > 256 * 1024)) {
      yield call;
      [call, bytes] = [[], 0];
    }
    call.push({ Source, DetailType, Detail });
    bytes += size;
  }
  if (call.length > 0) yield call;
}

/** Two decimals: the precision the figures are printed with. */
export const round = (n: number): number => Math.round(n * 100) / 100;
