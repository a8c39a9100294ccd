import { appendFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../forwarder/log.ts';
import { Spool } from '../../forwarder/send/spool.ts';
import type { OutgoingEvent } from '../../forwarder/observation.ts';
import { someEvents } from './events.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'jobfold-spool-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const open = (maxBytes = 1024 * 1024, segmentBytes = 4096) => Spool.open({ dir, maxBytes, segmentBytes, log: silentLogger });
const ids = (records: { event: { eventId: string } }[]) => records.map((r) => r.event.eventId);

describe('The on-disk spool', () => {
  it('gives events back in the order they were appended, across segment files', async () => {
    const spool = await open();
    await spool.append(someEvents(30, 400));
    const seen: string[] = [];
    for (let batch = await spool.peek(10); batch.length > 0; batch = await spool.peek(10)) {
      seen.push(...ids(batch));
      await spool.commit(batch);
    }
    expect(seen).toEqual(someEvents(30).map((e) => e.eventId));
    expect(spool.isEmpty()).toBe(true);
    expect(spool.bytes).toBe(0);
    await spool.close();
  });

  it('deletes segment files once they are replayed', async () => {
    const spool = await open();
    await spool.append(someEvents(30, 400));
    const before = (await readdir(dir)).filter((f) => f.startsWith('segment-')).length;
    const batch = await spool.peek(10);
    await spool.commit(batch);
    await spool.commit(await spool.peek(10));
    const after = (await readdir(dir)).filter((f) => f.startsWith('segment-')).length;
    expect(before).toBeGreaterThan(1);
    expect(after).toBeLessThan(before);
    await spool.close();
  });

  describe('Given a spool reopened after a restart', () => {
    it('resumes after the last committed event', async () => {
      const first = await open();
      await first.append(someEvents(12));
      await first.commit(await first.peek(5));
      await first.close();

      const second = await open();
      expect(second.count).toBe(7);
      expect(ids(await second.peek(10))).toEqual(['e5', 'e6', 'e7', 'e8', 'e9', 'e10', 'e11']);
      await second.close();
    });

    it('drops a torn last line left by a crash in the middle of a write', async () => {
      const first = await open();
      await first.append(someEvents(3));
      await first.close();
      const [segment] = (await readdir(dir)).filter((f) => f.startsWith('segment-'));
      await appendFile(join(dir, segment ?? ''), '{"source":"jobfold.cluster.c1","deta');

      const second = await open();
      expect(second.count).toBe(3);
      expect(ids(await second.peek(10))).toEqual(['e0', 'e1', 'e2']);
      await second.close();
    });
  });

  it('skips a line that does not parse, and goes on with the next', async () => {
    const first = await open();
    await first.append(someEvents(1));
    await first.close();
    const [segment] = (await readdir(dir)).filter((f) => f.startsWith('segment-'));
    await appendFile(join(dir, segment ?? ''), 'not json\n');
    const second = await open();
    await second.append([someEvents(3)[2] as OutgoingEvent]);

    const records = await second.peek(10);
    expect(ids(records)).toEqual(['e0']);
    await second.commit(records);
    expect(ids(await second.peek(10))).toEqual(['e2']);
    await second.close();
  });

  describe('Given a spool near its bound', () => {
    it('takes what fits and hands back the rest, in order, as overflow', async () => {
      const spool = await open(5 * 1024);
      const { spooled, overflow } = await spool.append(someEvents(40, 400));
      expect(spooled.length).toBeGreaterThan(0);
      expect(spooled.length + overflow.length).toBe(40);
      expect(overflow[0]?.eventId).toBe(`e${spooled.length}`);
      expect(spool.bytes).toBeLessThanOrEqual(5 * 1024);
      await spool.close();
    });
  });
});
