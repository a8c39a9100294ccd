import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { validateIndexesFormat } from '../../../shared/indexes/index-set.ts';

describe('validateIndexesFormat', () => {
  // Upstream TestValidateIndexesString, case names and messages verbatim.
  it.each<{ name: string; text: string; completions: number; wantTotal: number; wantError?: string }>([
    { name: 'empty is valid', text: '', completions: 6, wantTotal: 0 },
    { name: 'single number is valid', text: '1', completions: 6, wantTotal: 1 },
    { name: 'single interval is valid', text: '1-3', completions: 6, wantTotal: 3 },
    { name: 'mixed intervals valid', text: '0,1-3,5,7-10', completions: 12, wantTotal: 9 },
    { name: 'invalid due to extra space', text: '0,1-3, 5', completions: 6, wantTotal: 0, wantError: 'cannot convert string to integer for index: " 5"' },
    { name: 'invalid due to too large index', text: '0,1-3,5', completions: 5, wantTotal: 0, wantError: 'too large index: "5"' },
    { name: 'invalid due to non-increasing order of intervals', text: '1-3,0,5', completions: 6, wantTotal: 0, wantError: 'non-increasing order, previous: 3, current: 0' },
    { name: 'invalid due to non-increasing order between intervals', text: '0,0,5', completions: 6, wantTotal: 0, wantError: 'non-increasing order, previous: 0, current: 0' },
    { name: 'invalid due to non-increasing order within interval', text: '0,1-1,5', completions: 6, wantTotal: 0, wantError: 'non-increasing order, previous: 1, current: 1' },
    { name: "invalid due to starting with '-'", text: '-1,0', completions: 6, wantTotal: 0, wantError: 'cannot convert string to integer for index: ""' },
    { name: "invalid due to ending with '-'", text: '0,1-', completions: 6, wantTotal: 0, wantError: 'cannot convert string to integer for index: ""' },
    { name: "invalid due to repeated '-'", text: '0,1--3', completions: 6, wantTotal: 0, wantError: `the fragment "1--3" violates the requirement that an index interval can have at most two parts separated by '-'` },
    { name: "invalid due to repeated ','", text: '0,,1,3', completions: 6, wantTotal: 0, wantError: 'cannot convert string to integer for index: ""' },
    // Beyond the upstream table: Go Atoi and %q details.
    { name: 'plus sign and leading zeros are valid (Go Atoi)', text: '+1,03-+05', completions: 6, wantTotal: 4 },
    { name: 'too large end of a range', text: '0-6', completions: 6, wantTotal: 0, wantError: 'too large index: "6"' },
    { name: 'too large index keeps its spelling', text: '+07', completions: 6, wantTotal: 0, wantError: 'too large index: "+07"' },
    { name: 'every index too large with completions 0', text: '0', completions: 0, wantTotal: 0, wantError: 'too large index: "0"' },
    { name: 'beyond int64 does not convert', text: '9223372036854775808', completions: 6, wantTotal: 0, wantError: 'cannot convert string to integer for index: "9223372036854775808"' },
    { name: 'int64 max converts, then is too large', text: '9223372036854775807', completions: 6, wantTotal: 0, wantError: 'too large index: "9223372036854775807"' },
    { name: 'trailing comma', text: '1,', completions: 6, wantTotal: 0, wantError: 'cannot convert string to integer for index: ""' },
    { name: 'control character quoted as Go does', text: '1,\t2', completions: 6, wantTotal: 0, wantError: 'cannot convert string to integer for index: "\\t2"' },
    { name: 'quote inside the fragment escaped', text: '1-"2"-3', completions: 6, wantTotal: 0, wantError: `the fragment "1-\\"2\\"-3" violates the requirement that an index interval can have at most two parts separated by '-'` },
  ])('$name', ({ text, completions, wantTotal, wantError }) => {
    const result = validateIndexesFormat(text, completions);

    if (wantError === undefined) expect(result).toEqual({ ok: true, total: wantTotal });
    else expect(result).toEqual({ ok: false, message: wantError });
  });

  it('counts a 64 KiB list', () => {
    const parts: string[] = [];
    let total = 0;
    for (let index = 0; parts.join(',').length < 65_000; index += 4) {
      parts.push(index % 3 === 0 ? `${index}-${index + 2}` : `${index}`);
      total += index % 3 === 0 ? 3 : 1;
    }

    expect(validateIndexesFormat(parts.join(','), 1_000_000)).toEqual({ ok: true, total });
  });
});

// The Job validation corpus wraps these strings in a success policy; validateSuccessPolicyRule
// reports a format error as `error parsing succeededIndexes: <message>`.
const CORPUS_DIR = new URL('../../../../shared/conformance/k8s-validation/', import.meta.url);

const CorpusCaseSchema = z.object({
  id: z.string(),
  job: z.object({
    spec: z.object({
      completions: z.number(),
      successPolicy: z.object({
        rules: z.tuple([z.object({ succeededIndexes: z.string(), succeededCount: z.number().optional() })]),
      }),
    }),
  }),
  expect: z.object({
    valid: z.boolean(),
    errors: z.array(z.object({ field: z.string(), type: z.string(), messageContains: z.string().optional() })),
  }),
});

const corpusCases = readdirSync(CORPUS_DIR)
  .filter((file) => /^success-policy__succeeded-(indexes-.*|count-above-listed-indexes)\.json$/.test(file))
  .sort()
  .map((file) => CorpusCaseSchema.parse(JSON.parse(readFileSync(new URL(file, CORPUS_DIR), 'utf8'))));

describe('validateIndexesFormat on the k8s-validation corpus', () => {
  it('finds the succeededIndexes cases', () => {
    expect(corpusCases.length).toBeGreaterThanOrEqual(12);
  });

  it.each(corpusCases)('$id', ({ job, expect: expected }) => {
    const { completions, successPolicy } = job.spec;
    const [rule] = successPolicy.rules;
    const result = validateIndexesFormat(rule.succeededIndexes, completions);
    const formatError = expected.errors.find(
      (error) => error.field.endsWith('.succeededIndexes') && error.type === 'FieldValueInvalid',
    );
    const countError = expected.errors.find(
      (error) => error.field.endsWith('.succeededCount') && error.messageContains?.includes('succeededIndexes'),
    );
    const tooLong = expected.errors.some((error) => error.type === 'FieldValueTooLong');

    if (formatError !== undefined) {
      expect(result.ok).toBe(false);
      expect(result.ok ? '' : `error parsing succeededIndexes: ${result.message}`).toBe(formatError.messageContains);
    } else if (tooLong) {
      // Upstream also reports the unparsable digits; the corpus pins only the length error.
      expect(result.ok).toBe(false);
    } else {
      expect(result.ok).toBe(true);
      const total = result.ok ? result.total : -1;
      if (countError !== undefined) expect(countError.messageContains).toContain(`equal to ${total} (`);
      else if (rule.succeededCount !== undefined) expect(total).toBeGreaterThanOrEqual(rule.succeededCount);
    }
  });
});
