import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PutEventsCommand, type EventBridgeClient, type PutEventsCommandOutput } from '@aws-sdk/client-eventbridge';
import { logger } from '../../../functions/commons/powertools.ts';
import { DynamoDbEventStore } from '../../../functions/adapters/dynamodb-event-store.ts';
import { startDynamoDbLocal } from '../../../local/dynamodb-local.ts';
import { useTestStack } from '../local/local-stack-fixture.ts';
import { freshTable, localClient } from '../store/local-table.ts';
import type { PutEntry } from './burst.ts';
import { crashBurstRun } from './crash-burst.ts';
import { badCases, FULL_SIZE, seeded, summaryTable, type FaultCase } from './fault-outcomes.ts';
import { badClientCases, controlCharacterCases, oversizedCases } from './http-cases.ts';
import { randomCrashRun, referenceRun, replayAfterRestartRun } from './random-crash.ts';
import { clockCases } from './clock-cases.ts';
import { eventIdOf, STACK_CASES, stepEntries, type StackCase, type StackProbe } from './stack-cases.ts';
import { storeOutageRun } from './store-outage.ts';

// Issue 24: the fault suite, beside the hostile-input suite. Faults that come from the
// environment — reused names and uids, conflicting and replayed duplicates, processes killed at
// random points of a burst, the database dying under `npm start`, bad HTTP clients, NUL
// parameters, forwarders' clocks off by hours or years — each case judged by what the service
// stored and answered, and counted by class and outcome. The last five outcome columns must stay 0.
//
// Sizes: `npm test` runs 1 killed-process burst (3 kills), 1 burst whose service is killed at 20
// points (its database outliving it), and 1 outage; JOBFOLD_FAULTS=full runs the sizes
// (20 killed-process bursts of 500 pods, 3 outages of 300 pods) and the 20-kill burst.

logger.setLogLevel('SILENT');
process.env['POWERTOOLS_METRICS_DISABLED'] = 'true';

const cases: FaultCase[] = [];

/**
 * One PutEvents call, sent again when the connection drops before an answer (a keep-alive socket
 * the server closed as the call went out), as a forwarder retries: the same eventIds, stored once.
 */
async function sendAsAForwarder(client: EventBridgeClient, entries: readonly PutEntry[]): Promise<PutEventsCommandOutput> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.send(new PutEventsCommand({ Entries: [...entries] }));
    } catch (error) {
      if (attempt >= 3 || !/ECONNRESET|socket hang up/.test(String((error as Error).message))) throw error;
    }
  }
}
const expectNoBad = (of: readonly FaultCase[]) => expect(badCases(of)).toEqual([]);

describe('the fault suite', () => {
  describe('on one local stack (DynamoDB Local)', () => {
    const running = useTestStack();
    const busRefusals = new Map<string, string[]>();

    const probe: StackProbe = {
      get: async (path) => {
        const response = await fetch(`${running.stack.url}${path}`);
        const text = await response.text();
        let body: unknown;
        try { body = JSON.parse(text); } catch { body = text; }
        return { status: response.status, body };
      },
      log: async (stream) => (await running.stack.store.read(stream)).entries,
      refusals: (eventId) => [
        ...(busRefusals.get(eventId) ?? []),
        ...running.stack.rejected().filter((r) => JSON.stringify(r.original ?? null).includes(`"eventId":${JSON.stringify(eventId)}`))
          .map((r) => `${r.reason} ${JSON.stringify(r.errors)}`),
      ],
    };

    /** Sends every case's steps (step by step across the cases, the service quiet between), then judges each. */
    async function sendAndJudge(of: readonly StackCase[]): Promise<FaultCase[]> {
      const steps = Math.max(...of.map((c) => c.steps.length));
      for (let step = 0; step < steps; step++) {
        const calls = of.flatMap((c) => (c.steps[step] === undefined ? [] : [stepEntries(c.steps[step]!)]));
        for (let i = 0; i < calls.length; i += 16) {
          await Promise.all(calls.slice(i, i + 16).map(async (entries) => {
            const output = await sendAsAForwarder(running.client, entries);
            output.Entries?.forEach((result, j) => {
              if (result.ErrorCode === undefined) return;
              const id = eventIdOf(entries[j]!);
              busRefusals.set(id, [...(busRefusals.get(id) ?? []), `${result.ErrorCode}: ${result.ErrorMessage}`]);
            });
          }));
        }
        await running.stack.whenQuiet(0);
      }
      const judged = await Promise.all(of.map(async (c) => ({ fault: c.fault, name: c.name, ...(await c.judge(probe)) })));
      cases.push(...judged);
      return judged;
    }

    it(`identities and duplicates: ${STACK_CASES.length} cases, each on Jobs of its own`, async () => {
      expectNoBad(await sendAndJudge(STACK_CASES));
    }, 600_000);

    it('clocks: stamps far ahead, long ago, written with offsets and fractions, a forwarder restarted behind, deadlines on a cluster clock ahead', async () => {
      // Built now: the stamps are set around the real time, which the service's arrival clock reads.
      expectNoBad(await sendAndJudge(clockCases()));
    }, 600_000);

    it('NUL and control characters in every parameter and path segment: a 400 naming it', async () => {
      const judged = await controlCharacterCases(running.stack.url);
      cases.push(...judged);
      expectNoBad(judged);
    }, 300_000);

    it('oversized request lines and headers: answered, never a reset', async () => {
      const judged = await oversizedCases(running.stack.url);
      cases.push(...judged);
      expectNoBad(judged);
    }, 300_000);

    it('slow, half-open and vanishing clients: others are served, stalled sockets are closed', async () => {
      const judged = await badClientCases(running.stack.url);
      cases.push(...judged);
      expectNoBad(judged);
    }, 300_000);
  });

  describe('processes dying, on DynamoDB Local', () => {
    let store: DynamoDbEventStore;
    beforeAll(async () => {
      const client = localClient();
      store = new DynamoDbEventStore({ client, tableName: await freshTable(client) });
    });

    it('a writer and a publisher killed at random points of 20 bursts (seeded), everything unacknowledged redelivered', async () => {
      const random = seeded(24);
      const reference = await referenceRun(store, 20, random);
      const judged: FaultCase[] = [];
      for (let run = 1; run <= 20; run++) judged.push(await randomCrashRun(store, run, 20, random, reference));
      for (const size of [1, 7, 1000]) judged.push(await replayAfterRestartRun(store, size, random));
      cases.push(...judged);
      expectNoBad(judged);
    }, 600_000);
  });

  describe('npm start -- --data DIR, killed and starved', () => {
    it(`kill -9 at random moments of a burst: ${FULL_SIZE ? 20 : 1} run(s) of 3 kills, and one service killed at 20 points of a burst, everything unacknowledged re-sent`, async () => {
      const random = seeded(2024);
      const judged: FaultCase[] = [];
      for (let run = 1; run <= (FULL_SIZE ? 20 : 1); run++) judged.push(await crashBurstRun({ run, pods: FULL_SIZE ? 500 : 30, kills: 3, random }));
      // 20 kill points cheaply: one burst (200 pods, 21 calls), its DynamoDB Local outliving the
      // service, so a restart starts no Java.
      const database = await startDynamoDbLocal();
      try {
        judged.push(await crashBurstRun({ run: judged.length + 1, pods: 200, kills: 20, random, dynamodb: database.endpoint }));
      } finally {
        await database.stop();
      }
      cases.push(...judged);
      expectNoBad(judged);
    }, FULL_SIZE ? 7_200_000 : 900_000);

    it(`DynamoDB Local killed mid-burst, ${FULL_SIZE ? 3 : 1} run(s)`, async () => {
      const random = seeded(404);
      const judged: FaultCase[] = [];
      for (let run = 1; run <= (FULL_SIZE ? 3 : 1); run++) judged.push(...(await storeOutageRun(run, FULL_SIZE ? 300 : 60, random)));
      cases.push(...judged);
      expectNoBad(judged);
    }, FULL_SIZE ? 3_600_000 : 900_000);
  });

  afterAll(() => {
    console.log(`fault suite: ${cases.length} cases\n${summaryTable(cases)}`);
  });

  it('counts at least 300 cases', () => {
    // runs last (tests of a file run in order): every class above has added its cases
    expect(cases.length).toBeGreaterThanOrEqual(300);
  });
});
