import { beforeAll, describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../../../../shared/log/in-memory-event-store.ts';
import { JobIndexesSchema, JobTimelineSchema } from '../../../../functions/query/console/console-schemas.ts';
import { intervalsOf } from '../../../../functions/query/console/index-intervals.ts';
import { buildFleet } from '../support/fleet.ts';
import { jobPath, queryClient, type Get } from '../support/query-client.ts';
import { aService } from '../support/service-fleet.ts';

// Given KEP-3998 story 2 played through the service (Indexed, 10 completions, the leader
// succeeds), when the console asks for the index states and the timeline, then they agree with
// the status at the same point of the log.

let get: Get;
beforeAll(async () => {
  const service = aService(new InMemoryEventStore());
  await buildFleet(service, 0);
  get = queryClient(service);
});

const story = (suffix: string) => jobPath('c1', 'default', 'foobar', suffix);

describe('GET …/jobs/{name}/indexes', () => {
  it('at the head: the completed indexes of the status, nothing active once the Job finished', async () => {
    const { status, body } = await get(story('/indexes'));
    expect(status).toBe(200);
    expect(JobIndexesSchema.parse(body)).toEqual(body);
    const head = (await get(story('/status'))).body;
    expect(body).toMatchObject({ completions: 10, succeeded: head.status.completedIndexes, active: '', head: head.head });
    expect(body.at.seq).toBe(head.head);
  });

  it('at every point of the log: succeeded equals completedIndexes there, active counts the active pods', async () => {
    const { head } = (await get(story('/status'))).body;
    let sawActive = false;
    for (let seq = 1; seq <= head; seq++) {
      const at = (await get(story('/status'), { at: String(seq) })).body.status;
      const indexes = (await get(story('/indexes'), { at: String(seq) })).body;
      expect(indexes.succeeded).toBe(at.completedIndexes);
      const activeCount = indexes.active === '' ? 0 : indexes.active.split(',').reduce((n: number, part: string) => {
        const [a, b] = part.split('-').map(Number);
        return n + (b === undefined ? 1 : b - a! + 1);
      }, 0);
      expect(activeCount).toBeLessThanOrEqual(at.active);
      if (activeCount > 0) sawActive = true;
    }
    expect(sawActive).toBe(true);
  });

  it('refuses a point beyond the head, naming query.at', async () => {
    const { status, body } = await get(story('/indexes'), { at: '100000' });
    expect(status).toBe(400);
    expect(body.errors[0].path).toBe('query.at');
  });
});

describe('GET …/jobs/{name}/timeline', () => {
  it('lists each condition change with the seq of its decision in the history', async () => {
    const { status, body } = await get(story('/timeline'));
    expect(status).toBe(200);
    expect(JobTimelineSchema.parse(body)).toEqual(body);
    expect(body.transitions.map((t: { type: string; reason: string }) => [t.type, t.reason])).toEqual([
      ['SuccessCriteriaMet', 'SuccessPolicy'],
      ['Complete', 'SuccessPolicy'],
    ]);
    const history = (await get(story('/history'), { limit: '500' })).body.entries;
    for (const t of body.transitions) {
      expect(history.find((e: { seq: number }) => e.seq === t.seq)).toMatchObject({ type: 'JobConditionChanged' });
    }
  });
});

describe('intervalsOf', () => {
  it('writes sorted runs as completedIndexes does', () => {
    expect(intervalsOf([5, 0, 1, 2, 9, 8])).toBe('0-2,5,8-9');
    expect(intervalsOf([])).toBe('');
    expect(intervalsOf([3])).toBe('3');
  });
});
