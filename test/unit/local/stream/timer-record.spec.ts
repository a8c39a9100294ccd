import { describe, expect, it } from 'vitest';
import { TimerRecordSchema, timerPartitionKey, timerRecord } from '../../../../functions/handlers/writer/timer-record.ts';

// Given a Job's wake-up, when a timer fires, then the record it puts into the ingest stream is
// the agreed shape (an EventBridge-like event) keyed by the Job's uid, and it parses back.

const stream = { kind: 'Job' as const, clusterId: 'c1', namespace: 'default', uid: '8f3e-uid' };

describe('the timer record', () => {
  it('is an EventBridge-like event naming the stream and the due time, keyed by the Job uid', () => {
    const record = timerRecord(stream, '2026-01-01T00:00:05Z');

    expect(record).toEqual({ source: 'jobfold.timer', 'detail-type': 'Timer Fired', detail: { stream, at: '2026-01-01T00:00:05Z' } });
    expect(timerPartitionKey(stream)).toBe('8f3e-uid');
    expect(TimerRecordSchema.parse(JSON.parse(JSON.stringify(record)))).toEqual(record);
  });

  it('refuses a record of another source or without a due time, naming the field', () => {
    const wrongSource = TimerRecordSchema.safeParse({ ...timerRecord(stream, '2026-01-01T00:00:05Z'), source: 'jobfold.cluster.c1' });
    const noTime = TimerRecordSchema.safeParse({ source: 'jobfold.timer', 'detail-type': 'Timer Fired', detail: { stream } });

    expect(wrongSource.success).toBe(false);
    expect(wrongSource.error?.issues[0]?.path).toEqual(['source']);
    expect(noTime.error?.issues[0]?.path).toEqual(['detail', 'at']);
  });
});
