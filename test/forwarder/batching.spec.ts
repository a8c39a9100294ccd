import { describe, expect, it } from 'vitest';
import {
  entrySize,
  fitsOneEntry,
  MAX_ENTRY_BYTES,
  MAX_REQUEST_BYTES,
  nextBatchLength,
  toBatches,
} from '../../forwarder/send/batching.ts';
import { anEvent, someEvents } from './events.ts';

describe('PutEvents batching', () => {
  it('counts an entry as EventBridge does: 14 bytes for Time plus the UTF-8 bytes of Source, DetailType and Detail', () => {
    const event = { ...anEvent(1), detail: '{"name":"é"}' };
    expect(entrySize(event)).toBe(14 + 'jobfold.cluster.c1'.length + 'Pod Observed'.length + 13);
  });

  it('puts at most 10 entries in one call', () => {
    expect(toBatches(someEvents(25)).map((b) => b.length)).toEqual([10, 10, 5]);
  });

  it('starts a new call before the entries would pass 256 KiB, EventBridge\'s limit per call', () => {
    const big = someEvents(5, 100 * 1024);
    const batches = toBatches(big);
    expect(batches.map((b) => b.length)).toEqual([2, 2, 1]);
    for (const batch of batches) expect(batch.reduce((sum, e) => sum + entrySize(e), 0)).toBeLessThanOrEqual(MAX_REQUEST_BYTES);
  });

  it('keeps the order of the events across batches', () => {
    const events = someEvents(23);
    expect(toBatches(events).flat()).toEqual(events);
  });

  it('always takes at least one event, so a large one cannot block the queue', () => {
    expect(nextBatchLength([anEvent(1, 250 * 1024)])).toBe(1);
  });

  it('refuses an entry that could not be delivered under 256 KiB with its envelope', () => {
    expect(fitsOneEntry(anEvent(1, 200 * 1024))).toBe(true);
    expect(fitsOneEntry(anEvent(1, MAX_ENTRY_BYTES))).toBe(false);
  });
});
