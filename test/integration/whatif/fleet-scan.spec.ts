import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWhatIfFleet } from '../../../bench/whatif-fleet.ts';
import { whatIfCommand } from '../../../cli/whatif-command.ts';
import type { LocalStack } from '../../../local/local-stack.ts';
import { startTestStack } from '../local/local-stack-fixture.ts';

// Given 200 recorded Jobs on DynamoDB Local (a quarter failed once before succeeding), when the
// fleet what-if runs with backoffLimit 0, then the parallel scan reads each Job exactly once
// and answers what the list-and-query walk answers; a walk cut short says it is partial and its
// --resume token reads the rest.

const JOBS = 200;
const PATCH = '{"spec":{"backoffLimit":0}}';

let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack();
  await seedWhatIfFleet(stack, JOBS);
}, 120_000);
afterAll(() => stack.stop());

async function run(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await whatIfCommand(['--fleet', '--patch', PATCH, '--json', ...argv], { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, tally: out === '' ? undefined : JSON.parse(out), err };
}

const post = async (body: unknown): Promise<any> => (await fetch(`${stack.url}/v1/whatif`, { method: "POST", body: JSON.stringify(body) })).json();

describe('fleet what-if by parallel scan', () => {
  it('answers what the newest-first list answers, each Job once', async () => {
    const scanned = await run('--endpoint', stack.url);
    const listed = await run('--endpoint', stack.url, '--since', '2000-01-01T00:00:00Z');
    expect(scanned.code).toBe(0);
    expect(scanned.tally).toMatchObject({ jobs: JOBS, outcomeChanged: JOBS / 4, decidedEarlier: JOBS / 4, skipped: 0 });
    expect(new Set(scanned.tally.changed.map((j: { uid: string }) => j.uid)).size).toBe(JOBS / 4);
    const { changed: a, ...scanCounts } = scanned.tally;
    const { changed: b, ...listCounts } = listed.tally;
    expect(scanCounts).toEqual(listCounts);
    expect(a.map((j: { uid: string }) => j.uid).sort()).toEqual(b.map((j: { uid: string }) => j.uid).sort());
  }, 60_000);

  it('stops each call at a whole log and continues after it: small pages read every Job once', async () => {
    const uids: string[] = [];
    let jobs = 0;
    for (const segment of [0, 1]) {
      let cursor: string | undefined;
      do {
        const page = await post({ patch: JSON.parse(PATCH), segment, segments: 2, limit: 25, ...(cursor ? { cursor } : {}) });
        jobs += page.tally.jobs;
        uids.push(...page.tally.changed.map((j: { uid: string }) => j.uid));
        expect(page.tally.jobs).toBeLessThanOrEqual(25);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
    }
    expect(jobs).toBe(JOBS);
    expect(new Set(uids).size).toBe(JOBS / 4);
  }, 60_000);

  it('refuses a cursor of another segment, and since with segments', async () => {
    const first = await post({ patch: {}, segment: 0, segments: 2, limit: 5 });
    const other = await post({ patch: {}, segment: 1, segments: 2, cursor: first.nextCursor });
    expect(other.errors[0].path).toBe('body.cursor');
    const since = await post({ patch: {}, segments: 2, since: '2000-01-01T00:00:00Z' });
    expect(since.errors[0].path).toBe('body.segments');
  });

  it('says a walk cut short is partial, and --resume reads exactly the rest', async () => {
    // A proxy that fails every call from the third on (retries too): the chains keep what they read.
    let calls = 0;
    let failing = true;
    const proxy: Server = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      if (failing && ++calls >= 3) return void response.writeHead(503).end('{"message":"unavailable"}');
      const answer = await fetch(`${stack.url}${request.url}`, { method: request.method, body: Buffer.concat(chunks) });
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const via = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const cut = await run('--endpoint', via);
      expect(cut.code).toBe(3);
      expect(cut.tally.partial).toBe(true);
      expect(cut.tally.jobs).toBeLessThan(JOBS);
      expect(cut.err).toContain('PARTIAL');
      failing = false;
      const rest = await run('--endpoint', via, '--resume', cut.tally.resume);
      expect(rest.code).toBe(0);
      expect(cut.tally.jobs + rest.tally.jobs).toBe(JOBS);
      expect(cut.tally.outcomeChanged + rest.tally.outcomeChanged).toBe(JOBS / 4);
    } finally {
      proxy.close();
    }
  }, 60_000);
});
