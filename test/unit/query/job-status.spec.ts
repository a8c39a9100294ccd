import { beforeAll, describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { evolve, type JobEvent } from '../../../shared/job/evolve.ts';
import { countAtSync } from '../../../shared/job/observe-pod.ts';
import { JOBFOLD_DEFAULT_GATES } from '../../../shared/k8s/feature-gates.ts';
import { DEFAULT_FOLD_CONFIG, initialState } from '../../../shared/job/state.ts';
import { jobStatus } from '../../../shared/job/status.ts';
import { parseTime } from '../../../shared/k8s/time.ts';
import { playJobScenario } from '../../../cli/scenario/play-job-scenario.ts';
import { StatusAtSchema } from '../../../functions/query/schemas/job-schemas.ts';
import { buildFleet, STORY_2 } from './support/fleet.ts';
import { jobPath, queryClient, type Get } from './support/query-client.ts';
import { aService, loadScenario } from './support/service-fleet.ts';

// Given story 2 played through the service (each entry recorded at its group's time), when its
// status is asked at a log position or a time, then it is the pure fold of that log prefix.

let get: Get;
beforeAll(async () => {
  const service = aService(new InMemoryEventStore());
  await buildFleet(service, 0);
  get = queryClient(service);
});

const pure = playJobScenario(loadScenario(STORY_2), { gates: JOBFOLD_DEFAULT_GATES, validateSpecs: true });
const status = jobPath('c1', 'default', 'foobar', '/status');

/** The status after folding the first `n` events of the pure run's log, as JSON. */
function statusAfter(n: number) {
  const state = initialState({ ...DEFAULT_FOLD_CONFIG, gates: JOBFOLD_DEFAULT_GATES });
  for (const event of pure.log.slice(0, n)) evolve(state, event);
  countAtSync(state);
  return JSON.parse(JSON.stringify(jobStatus(state)));
}

const timeOf = (event: JobEvent): string => ('observedAt' in event ? event.observedAt : event.at);
/** Entries recorded at or before `time`: every entry is recorded at its group's time. */
const recordedBy = (time: string): number => pure.log.filter((e) => parseTime(timeOf(e)) <= parseTime(time)).length;

describe('GET …/jobs/{name}/status', () => {
  it('answers the status at the head when no point is given', async () => {
    const { status: code, body } = await get(status);
    expect(code).toBe(200);
    expect(StatusAtSchema.parse(body)).toEqual(body);
    expect(body).toEqual({
      job: { clusterId: 'c1', namespace: 'default', name: 'foobar', uid: 'job-uid' },
      at: { seq: 28, recordedAt: '2026-01-01T00:05:35Z' },
      head: 28,
      outcome: 'Succeeded',
      status: statusAfter(28),
    });
  });

  it.each([0, 1, 4, 14, 15, 16, 17, 27, 28])('folds the log up to seq %i', async (seq) => {
    const { status: code, body } = await get(status, { at: String(seq) });
    expect(code).toBe(200);
    expect(body.at.seq).toBe(seq);
    expect(body.head).toBe(28);
    expect(body.status).toEqual(statusAfter(seq));
  });

  it('shows the interim condition between SuccessCriteriaMet and Complete', async () => {
    const { body } = await get(status, { at: '17' });
    expect(body.outcome).toBe('Succeeding');
    expect(body.status.conditions.map((c: { type: string }) => c.type)).toEqual(['SuccessCriteriaMet']);
    expect(body.status.terminating).toBe(9);
  });

  it.each([
    ['2025-12-31T00:00:00Z', 0],
    ['2026-01-01T00:00:00Z', recordedBy('2026-01-01T00:00:00Z')],
    ['2026-01-01T00:04:59Z', recordedBy('2026-01-01T00:04:59Z')],
    ['2026-01-01T00:05:00Z', recordedBy('2026-01-01T00:05:00Z')],
    ['2026-01-01T01:05:00+01:00', recordedBy('2026-01-01T00:05:00Z')],
    ['2026-01-01T00:05:34.999Z', recordedBy('2026-01-01T00:05:34.999Z')],
    ['2026-01-02T00:00:00Z', 28],
  ])('at %s, folds the entries recorded by then (%i)', async (time, seq) => {
    const { status: code, body } = await get(status, { at: time });
    expect(code).toBe(200);
    expect(body.at.seq).toBe(seq);
    expect(body.status).toEqual(statusAfter(seq));
    if (seq > 0) expect(parseTime(body.at.recordedAt)).toBeLessThanOrEqual(parseTime(time));
  });

  it('knows nothing before the Job was recorded', async () => {
    const { body } = await get(status, { at: '2025-12-31T00:00:00Z' });
    expect(body.at).toEqual({ seq: 0 });
    expect(body.outcome).toBe('Unknown');
  });

  it('answers the same at the head as the reconciler loads it (snapshot and tail)', async () => {
    const head = await get(status, { uid: 'job-uid-old' });
    const folded = await get(status, { uid: 'job-uid-old', at: String(head.body.head) });
    expect(head.body.head).toBeGreaterThan(5);
    expect(head.body.status).toEqual(folded.body.status);
  });

  it('answers 400 for a position beyond the head', async () => {
    const { status: code, body } = await get(status, { at: '29' });
    expect(code).toBe(400);
    expect(body.errors).toEqual([{ path: 'query.at', message: 'log position 29 is beyond the head of the log (28)' }]);
  });

  it.each(['yesterday', '-1', '2026-01-01', '2026-13-01T00:00:00Z', '1.5', ''])('answers 400 for at=%j', async (at) => {
    const { status: code, body } = await get(status, { at });
    expect(code).toBe(400);
    expect(body.errors).toEqual([{ path: 'query.at', message: 'must be a log position (a whole number) or an RFC 3339 time' }]);
  });
});
