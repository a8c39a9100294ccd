import { BatchWriteItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Item } from '../functions/adapters/metered-table.ts';
import { decisionEntry, observationEntry } from '../shared/job/index.ts';
import type { NewEntry } from '../shared/log/event-store.ts';
import { decide, evolve, initialState, DEFAULT_FOLD_CONFIG, type JobEvent } from '../shared/job/index.ts';
import type { Observation } from '../shared/job/index.ts';

// Recorded fleets for the benches that read many Jobs (the fleet what-if, the advice): a Job's
// log as the service records it, and the table items written straight in, so that seeding is
// not what is measured.

/** The log of a Job the cluster reported batch by batch: each batch folded, then reconciled at its first observation's time (`otherwise` for an empty one). */
export function recordBatches(batches: readonly (readonly Observation[])[], otherwise: string) {
  const state = initialState(DEFAULT_FOLD_CONFIG);
  const entries: NewEntry[] = [];
  let seq = 0;
  for (const batch of batches) {
    for (const observation of batch) {
      evolve(state, { ...observation, seq: ++seq } as JobEvent);
      entries.push(observationEntry(observation));
    }
    for (const decision of decide(state, batch[0]?.observedAt ?? otherwise).decisions) {
      evolve(state, { ...decision, seq: ++seq });
      entries.push(decisionEntry(decision));
    }
  }
  return { state, entries };
}

/** Puts `items` into the table, 25 a call, eight calls at a time, until none is left unprocessed. */
export async function writeItems(client: DynamoDBClient, tableName: string, items: readonly Item[]): Promise<void> {
  let next = 0;
  const write = async () => {
    while (next < items.length) {
      const batch = items.slice(next, (next += 25));
      let request: Record<string, { PutRequest: { Item: Item } }[]> | undefined = { [tableName]: batch.map((Item) => ({ PutRequest: { Item } })) };
      while (request && Object.keys(request).length > 0) {
        const output = await client.send(new BatchWriteItemCommand({ RequestItems: request }));
        request = output.UnprocessedItems as typeof request;
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, write));
}
