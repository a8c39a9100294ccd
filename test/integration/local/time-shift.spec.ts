import { describe, expect, it } from 'vitest';
import { parseTrace } from '../../../shared/contract/jsonl-trace.ts';
import { planTrace } from '../../../local/trace/time-shift.ts';

// A trace is played against the wall clock: times move to now, gaps shrink by the speed and are
// capped, and every timestamp in an event moves along with its observations.

const START = Date.parse('2030-06-01T12:00:00Z');
const line = (observedAt: string, object: Record<string, unknown> = {}) =>
  JSON.stringify({ Source: 'jobfold.cluster.c1', DetailType: 'Pod Observed', Detail: JSON.stringify({ eventId: observedAt, observedAt, object }) });
const plan = (lines: string[], pace = { speed: 10, maxGapMs: 5000 }) => planTrace(parseTrace('t.jsonl', lines.join('\n')), START, pace);
const detail = (entry: { entry: { Detail: string } }) => JSON.parse(entry.entry.Detail) as { observedAt: string; object: Record<string, unknown> };

describe('planTrace', () => {
  it('feeds the first event now and divides each gap by the speed', () => {
    const planned = plan([line('2026-01-01T00:00:00Z'), line('2026-01-01T00:00:10Z'), line('2026-01-01T00:00:30Z')]);

    expect(planned.map((p) => p.atMs - START)).toEqual([0, 1000, 3000]);
    expect(detail(planned[2]!).observedAt).toBe('2030-06-01T12:00:03.000Z');
  });

  it('caps a long quiet spell at maxGapMs', () => {
    const planned = plan([line('2026-01-01T00:00:00Z'), line('2026-01-01T05:00:00Z')]);

    expect(planned[1]!.atMs - START).toBe(5000);
  });

  it('feeds events sharing an observedAt at the same moment', () => {
    const planned = plan([line('2026-01-01T00:00:00Z'), line('2026-01-01T00:00:05Z'), line('2026-01-01T00:00:05Z')]);

    expect(planned[1]!.atMs).toBe(planned[2]!.atMs);
  });

  it('moves the other timestamps of an event between its observations', () => {
    const planned = plan([
      line('2026-01-01T00:00:10Z', { metadata: { creationTimestamp: '2026-01-01T00:00:00Z' } }),
      line('2026-01-01T00:00:30Z', { status: { containerStatuses: [{ state: { terminated: { finishedAt: '2026-01-01T00:00:20Z' } } }] } }),
    ]);

    expect(detail(planned[0]!).object).toEqual({ metadata: { creationTimestamp: '2030-06-01T11:59:59.000Z' } });
    expect(JSON.stringify(detail(planned[1]!).object)).toContain('"finishedAt":"2030-06-01T12:00:01.000Z"');
  });

  it('leaves a Detail that is not JSON as it is, fed with the event before it', () => {
    const bad = JSON.stringify({ Source: 'jobfold.cluster.c1', DetailType: 'Pod Observed', Detail: '{oops' });
    const planned = plan([line('2026-01-01T00:00:00Z'), line('2026-01-01T00:00:10Z'), bad]);

    expect(planned[2]).toMatchObject({ atMs: START + 1000, entry: { Detail: '{oops' } });
  });
});

describe('parseTrace', () => {
  it('names the file and line of a line that is no PutEvents entry', () => {
    expect(() => parseTrace('t.jsonl', `${line('2026-01-01T00:00:00Z')}\n{"type": "PodObserved"}\nnot json`)).toThrow(
      /t\.jsonl:2: Source: missing[^\n]*\nt\.jsonl:3: not valid JSON/,
    );
  });
});
