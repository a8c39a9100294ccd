import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PutEventsCommand, type EventBridgeClient } from '@aws-sdk/client-eventbridge';
import type { LocalStack } from '../../../local/local-stack.ts';
import { parseInbound } from '../../../shared/contract/parse-inbound.ts';
import { eventBridgeFor, startTestStack } from '../local/local-stack-fixture.ts';
import { CASES, entryOf, jobEvent, LOGIC_CASES, podEvent, type HostileCase, type LogicCase, type Probe } from './hostile-cases.ts';

// Issue 14, "Tests and figures": hostile and faulty inputs through the paths clients use
// (PutEvents with the real SDK client against the local stack's /events, raw HTTP, the query
// API), on DynamoDB Local, with a healthy Job beside them that must stay byte-identical. Each
// case states its expected outcome; the outcomes are counted and printed.

type Outcome = 'refused with reason' | 'handled' | 'crash' | 'wrong write' | 'lost';

let stack: LocalStack;
let client: EventBridgeClient;
const HEALTHY = { uid: 'healthy-uid', name: 'healthy' };
const HEALTHY_PATH = `/v1/clusters/cluster-a/namespaces/default/jobs/${HEALTHY.name}`;
let healthyBefore: string[];
const outcomes = new Map<string, { outcome: Outcome; detail: string }>();

const healthyNow = async () => Promise.all(['', '/history', '/explain'].map(async (s) => (await fetch(`${stack.url}${HEALTHY_PATH}${s}`)).text()));
const quiet = () => stack.whenQuiet(0);
const failures = () => stack.runtime.ingest.failures().length + stack.runtime.inbound.undelivered().length;

beforeAll(async () => {
  stack = await startTestStack();
  client = eventBridgeFor(stack);
  for (const event of [jobEvent(HEALTHY.uid, HEALTHY.name, { completions: 2, parallelism: 2 }),
    podEvent(HEALTHY.uid, HEALTHY.name, 'a', 'Running'), podEvent(HEALTHY.uid, HEALTHY.name, 'b', 'Succeeded')]) {
    await send(entryOf(event));
  }
  await quiet();
  healthyBefore = await healthyNow();
}, 120_000);

afterAll(async () => {
  client?.destroy();
  await stack?.stop();
});

/** Sends a probe; for PutEvents, the bus's refusal (ErrorMessage) if any. */
async function send(probe: Probe): Promise<{ refusal?: string; status?: number; body?: string }> {
  switch (probe.kind) {
    case 'entry':
      try {
        const output = await client.send(new PutEventsCommand({ Entries: [probe.entry] }));
        const failed = output.Entries?.[0];
        return (output.FailedEntryCount ?? 0) > 0 ? { refusal: `${failed?.ErrorCode}: ${failed?.ErrorMessage}` } : {};
      } catch (error) {
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        return { refusal: `${(error as Error).name}: ${(error as Error).message}`, status };
      }
    case 'raw': {
      const response = await fetch(`${stack.url}${probe.path}`, { method: 'POST', headers: probe.headers, body: probe.body });
      return { status: response.status, body: await response.text() };
    }
    case 'get': {
      const response = await fetch(`${stack.url}${probe.path}`);
      return { status: response.status, body: await response.text() };
    }
  }
}

/** Where an accepted entry would be stored, and its eventId (undefined when ingest must refuse it). */
async function stored(probe: Probe): Promise<boolean> {
  if (probe.kind !== 'entry') return false;
  let detail: unknown;
  try {
    detail = JSON.parse(probe.entry.Detail);
  } catch {
    return false;
  }
  const parsed = parseInbound({ source: probe.entry.Source, 'detail-type': probe.entry.DetailType, detail });
  if (!parsed.ok) return false;
  const [target] = parsed.targets;
  const { entries } = await stack.store.read({ ...target!.stream });
  return entries.some((e) => e.eventId === target!.entry.eventId);
}

async function run(c: HostileCase): Promise<{ outcome: Outcome; detail: string }> {
  const rejectedBefore = stack.rejected().length;
  const failuresBefore = failures();
  if ('setup' in c) {
    for (const probe of (c as LogicCase).setup) await send(probe);
    await quiet();
  }
  const sent = await send(c.probe);
  if (c.probe.kind === 'get' || c.probe.kind === 'raw') {
    const status = sent.status ?? 0;
    if (status >= 500) return { outcome: 'crash', detail: `${status} ${sent.body?.slice(0, 200)}` };
    if (status >= 400) return { outcome: sent.body ? 'refused with reason' : 'lost', detail: `${status} ${sent.body?.slice(0, 200)}` };
    if (c.probe.kind === 'raw') return { outcome: 'wrong write', detail: `${status} ${sent.body?.slice(0, 200)}` };
    return { outcome: 'handled', detail: String(status) };
  }
  if (sent.refusal) return { outcome: 'refused with reason', detail: sent.refusal };
  await quiet();
  if (failures() > failuresBefore) return { outcome: 'crash', detail: 'dead-lettered by the local runtime' };
  const rejection = stack.rejected().slice(rejectedBefore).at(-1);
  if (rejection) {
    if (rejection.reason.startsWith('dead-lettered')) return { outcome: 'crash', detail: rejection.reason };
    if (await stored(c.probe)) return { outcome: 'wrong write', detail: `stored and refused: ${rejection.reason}` };
    return { outcome: rejection.reason ? 'refused with reason' : 'lost', detail: rejection.reason.slice(0, 200) };
  }
  if (!(await stored(c.probe))) return { outcome: 'lost', detail: 'accepted, neither stored nor refused' };
  if ('job' in c) {
    const job = (c as LogicCase).job;
    const response = await fetch(`${stack.url}/v1/clusters/cluster-a/namespaces/default/jobs/${job.name}`);
    if (response.status >= 500) return { outcome: 'crash', detail: `GET ${response.status}` };
    const view = (await response.json()) as { stalled?: unknown };
    if (response.status !== 200 || view.stalled) return { outcome: 'crash', detail: `GET ${response.status} ${JSON.stringify(view).slice(0, 200)}` };
  }
  return { outcome: 'handled', detail: 'stored' };
}

describe('the hostile-input suite on the local stack (DynamoDB Local)', () => {
  it('has at least 150 cases across envelope, detail, logic and query', () => {
    const by = (category: string) => CASES.filter((c) => c.category === category).length;
    expect(CASES.length + LOGIC_CASES.length - LOGIC_CASES.length).toBeGreaterThanOrEqual(150);
    for (const category of ['envelope', 'detail', 'logic', 'query']) expect(by(category)).toBeGreaterThan(10);
  });

  it.each(CASES.map((c) => [`${c.category}: ${c.name}`, c] as const))('%s', async (_name, c) => {
    const result = await run(c);
    outcomes.set(`${c.category}: ${c.name}`, result);
    const expected = c.expected === 'refused' ? 'refused with reason' : 'handled';
    expect({ outcome: result.outcome, detail: result.detail }).toEqual({ outcome: expected, detail: expect.any(String) });
  });

  it('leaves the healthy Job byte-identical, and counts no crash, wrong write or loss', async () => {
    await quiet();
    expect(await healthyNow()).toEqual(healthyBefore);
    const counts: Record<Outcome, number> = { 'refused with reason': 0, handled: 0, crash: 0, 'wrong write': 0, lost: 0 };
    for (const { outcome } of outcomes.values()) counts[outcome]++;
    console.log(`hostile suite: ${outcomes.size} cases: ${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(', ')}`);
    expect(outcomes.size).toBe(CASES.length);
    expect({ crash: counts.crash, wrongWrite: counts['wrong write'], lost: counts.lost }).toEqual({ crash: 0, wrongWrite: 0, lost: 0 });
  });
});
