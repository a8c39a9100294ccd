import { readFileSync } from 'node:fs';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { itemFirstSightings, itemLastHash, logItemEntries, PAGE_FORM, pageItems } from '../../../functions/adapters/log-page-codec.ts';
import { ATTR } from '../../../functions/adapters/table-layout.ts';
import { auditEntry } from '../../../shared/audit/audit-format.ts';
import { verifyEntryChain } from '../../../shared/audit/verify-chain.ts';
import type { LogEntry } from '../../../shared/log/event-store.ts';
import { chainEntries } from '../../../shared/log/hash-chain.ts';

// Pages already stored still read: test/fixtures/pages-d88d97a holds two log pages d88d97a wrote
// (form 1, before placeholders), read with today's code, and a log that goes on after them in
// today's form reads whole, its chain unbroken across the two forms.

const FIXTURES = new URL('../../fixtures/pages-d88d97a/', import.meta.url);
const decode = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(decode);
  if (value && typeof value === 'object') {
    if ('$b64' in value) return new Uint8Array(Buffer.from((value as { $b64: string }).$b64, 'base64'));
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decode(v)]));
  }
  return value;
};
const stored = decode(JSON.parse(readFileSync(new URL('items.json', FIXTURES), 'utf8'))) as Record<string, AttributeValue>[];
const written = JSON.parse(readFileSync(new URL('entries.json', FIXTURES), 'utf8')) as LogEntry[];
const PK = stored[0]![ATTR.pk]!.S!;
const text = (entries: readonly LogEntry[]) => JSON.stringify(entries.map((e) => ({ ...e })));

describe('log pages d88d97a stored (form 1), read and written on after', () => {
  it('reads each stored page back as d88d97a wrote it: entries key for key, hashes, first sightings', () => {
    expect(stored.map((item) => item[ATTR.pageForm])).toEqual([undefined, undefined]);
    const read = stored.flatMap(logItemEntries);
    expect(text(read)).toBe(text(written));
    expect(itemLastHash(stored[1]!)).toBe(written.at(-1)!.hash);
    expect(itemFirstSightings(stored[0]!)).toEqual([2, 3, 4]);
    expect(verifyEntryChain(read.map(auditEntry))).toEqual([]);
  });

  it('goes on after them in form 2, and the log of both forms reads whole with one chain', () => {
    const last = written.at(-1)!;
    const more = chainEntries(last.hash!, [25, 26, 27].map((jobSeq, i) => {
      const like = last;
      const body = structuredClone(like.body) as { eventId: string; sequence: { jobSeq: number } };
      body.eventId = `${body.eventId}-${jobSeq}`;
      body.sequence.jobSeq = jobSeq;
      const { hash: _hash, ...entry } = { ...like, seq: last.seq + 1 + i, eventId: body.eventId, body };
      return entry;
    }));
    const added = pageItems(PK, more, { prevHash: last.hash! });
    expect(added.map((item) => item[ATTR.pageForm])).toEqual([{ N: String(PAGE_FORM) }]);
    const log = [...stored, ...added].flatMap(logItemEntries);
    expect(text(log)).toBe(text([...written, ...more]));
    expect(verifyEntryChain(log.map(auditEntry))).toEqual([]);
  });
});
