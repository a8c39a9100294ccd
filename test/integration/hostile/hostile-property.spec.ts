import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbEventStore } from '../../../functions/adapters/dynamodb-event-store.ts';
import { parseInbound } from '../../../shared/contract/parse-inbound.ts';
import { loadState } from '../../../shared/decide/load-log.ts';
import { jobDecider } from '../../../shared/job/index.ts';
import { knownObservation } from '../../../shared/job/known-observation.ts';
import type { Observation } from '../../../shared/job/events.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { freshTable, localClient } from '../store/local-table.ts';
import { at } from '../../support/builders.ts';
import { createServiceHarness, type ServiceHarness } from '../../support/service-harness.ts';
import { VALID } from '../service/hostile-events.ts';

// Issue 14, "Every inbound event is stored or refused with its reason": generated hostile
// envelopes and details through the writer on DynamoDB Local. Each is stored (or
// dropped as one the fold already holds) or refused with a reason, none is dead-lettered, no
// handler throws.

const hostileString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }), // lone surrogates included
  fc.string({ unit: fc.integer({ min: 0, max: 31 }).map((c) => String.fromCharCode(c)), maxLength: 20 }),
  fc.constantFrom('', '#', '/', '%', '%ZZ', '__proto__', 'constructor', ' ', '\uD800', '\uDC00x', '😀'),
  fc.integer({ min: 250, max: 600 }).map((n) => '€'.repeat(Math.floor(n / 3))),
  fc.constantFrom(62, 63, 64, 253, 254, 256, 257, 512, 513).map((n) => 'a'.repeat(n)),
);
const hostileNumber = fc.constantFrom(0, -1, 2147483647, 2147483648, -2147483648, -2147483649, 2 ** 53 - 1, 2 ** 53, 9223372036854775807, 1e308, -1e308, 0.5, Number.MIN_VALUE);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  hostileNumber,
  fc.constantFrom(null, true, [], {}),
  fc.integer({ min: 30, max: 40 }).map((d) => JSON.parse(`${'{"a":'.repeat(d)}1${'}'.repeat(d)}`)),
  fc.constant(JSON.parse('{"__proto__":{"polluted":true}}')),
  fc.dictionary(hostileString, hostileString, { maxKeys: 3 }),
);
const PATHS = [
  'source', 'detail-type', 'detail.eventId', 'detail.observedAt', 'detail.object.metadata.name', 'detail.object.metadata.namespace',
  'detail.object.metadata.uid', 'detail.object.metadata.labels', 'detail.object.metadata.annotations',
  'detail.object.metadata.ownerReferences', 'detail.object.status.phase', 'detail.object.status.message',
  'detail.object.status.containerStatuses', 'detail.object.metadata.deletionGracePeriodSeconds', 'detail.extra',
];
const KINDS = ['podObserved', 'podDeleted', 'jobObserved', 'jobDeleted'] as const;

const hostileEvent = fc.record({
  kind: fc.constantFrom(...KINDS),
  edits: fc.array(fc.tuple(fc.constantFrom(...PATHS), hostileValue), { minLength: 1, maxLength: 3 }),
  eventId: fc.uuid(),
}).map(({ kind, edits, eventId }) => {
  const event = JSON.parse(JSON.stringify(VALID[kind])) as Record<string, any>;
  event['detail'].eventId = eventId;
  for (const [path, value] of edits) {
    const keys = path.split('.');
    let target = event;
    for (const key of keys.slice(0, -1)) target = (target[key] ??= {});
    target[keys.at(-1)!] = value;
  }
  return event;
});

describe('generated hostile events through the writer (DynamoDB Local)', () => {
  let client: DynamoDBClient;
  let h: ServiceHarness;
  beforeAll(async () => {
    client = localClient();
    h = createServiceHarness({ store: new DynamoDbEventStore({ client, tableName: await freshTable(client) }), now: at(10) });
  });
  afterAll(() => client.destroy());

  it('stores or refuses each with a reason; nothing is dead-lettered and no handler throws', async () => {
    await fc.assert(
      fc.asyncProperty(hostileEvent, async (event) => {
        const rejectedBefore = h.rejected.length;
        const body = JSON.stringify(event);
        const parsedFirst = parseInbound(JSON.parse(body));
        // The writer logs what the fold does not hold yet (a pod already seen gone, say, is known).
        const known = parsedFirst.ok && parsedFirst.targets[0]?.stream.kind === 'Job'
          ? knownObservation((await loadState(jobDecider(DEFAULT_FOLD_CONFIG), h.store, parsedFirst.targets[0].stream)).state, parsedFirst.targets[0].entry.body as Observation)
          : undefined;
        const response = await h.deliverBodies([body]);
        expect(response.batchItemFailures).toEqual([]);
        const refusals = h.rejected.slice(rejectedBefore);
        const parsed = parseInbound(JSON.parse(body));
        if (!parsed.ok) {
          expect(refusals).toHaveLength(1);
          expect(refusals[0]?.reason).not.toBe('');
          expect(refusals[0]?.reason).not.toMatch(/^dead-lettered/);
          return;
        }
        expect(refusals).toEqual([]);
        const [target] = parsed.targets;
        const { entries } = await h.store.read(target!.stream);
        if (known === undefined) expect(entries.map((e) => e.eventId)).toContain(target!.entry.eventId);
        expect(await h.tick(target!.stream)).toEqual({ batchItemFailures: [] });
      }),
      { numRuns: 80 },
    );
  });
});
