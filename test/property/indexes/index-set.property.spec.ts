import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  IndexSet,
  parseIndexes,
  validateIndexesFormat,
} from '../../../shared/indexes/index-set.ts';

/** Index lists with runs in them, so intervals of every length show up, not just singles. */
const indexesArb = fc
  .array(fc.tuple(fc.nat({ max: 400 }), fc.nat({ max: 5 })), { maxLength: 40, size: 'medium' })
  .map((runs) => runs.flatMap(([first, extra]) => naiveRange(first, first + extra)));

const setArb = indexesArb.map((indexes) => IndexSet.of(...indexes));

/** Interleaved operations on a set, compared step by step with a plain `Set`. */
type Operation = { kind: 'add'; index: number } | { kind: 'has'; index: number } | { kind: 'read' };
const operationArb = (readWeight: number): fc.Arbitrary<Operation> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.nat({ max: 1_500 }).map((index) => ({ kind: 'add' as const, index })) },
    { weight: 3, arbitrary: fc.nat({ max: 1_500 }).map((index) => ({ kind: 'has' as const, index })) },
    { weight: readWeight, arbitrary: fc.constant({ kind: 'read' as const }) },
  );

describe('IndexSet properties', () => {
  it('parses its own string back to the same set', () => {
    fc.assert(
      fc.property(setArb, fc.nat({ max: 1_000 }), (set, headroom) => {
        const completions = (set.size === 0 ? 0 : Math.max(...set)) + 1 + headroom;
        expect(parseIndexes(set.toString(), completions).equals(set)).toBe(true);
      }),
    );
  });

  it('writes the same string as a naive run-length formatter', () => {
    fc.assert(
      fc.property(indexesArb, (indexes) => {
        expect(IndexSet.of(...indexes).toString()).toBe(naiveFormat(indexes));
      }),
    );
  });

  it('writes strings that strict validation accepts with the same total', () => {
    fc.assert(
      fc.property(setArb, (set) => {
        expect(validateIndexesFormat(set.toString(), 1_000)).toEqual({ ok: true, total: set.size });
      }),
    );
  });

  it('unions commutatively and associatively, holding exactly the indexes of all inputs', () => {
    fc.assert(
      fc.property(indexesArb, indexesArb, indexesArb, (a, b, c) => {
        const [setA, setB, setC] = [IndexSet.of(...a), IndexSet.of(...b), IndexSet.of(...c)];

        expect(IndexSet.union(setA, setB).equals(IndexSet.union(setB, setA))).toBe(true);
        const left = IndexSet.union(IndexSet.union(setA, setB), setC);
        const right = IndexSet.union(setA, IndexSet.union(setB, setC));
        expect(left.equals(right)).toBe(true);
        expect([...left]).toEqual(naiveSorted([...a, ...b, ...c]));
      }),
    );
  });

  it('has a size equal to the number of distinct indexes', () => {
    fc.assert(
      fc.property(indexesArb, (indexes) => {
        expect(IndexSet.of(...indexes).size).toBe(new Set(indexes).size);
      }),
    );
  });

  it.each<{ name: string; reads: number }>([
    { name: 'with occasional reads of the string', reads: 1 },
    // Without reads, long runs of gap-opening adds pile up and get merged in bulk.
    { name: 'with adds and lookups only', reads: 0 },
  ])('agrees with a plain Set on add, has and size, $name', ({ reads }) => {
    const operations = fc.array(operationArb(reads), { maxLength: 600, size: 'max' });
    fc.assert(
      fc.property(operations, (operations) => {
        const set = IndexSet.empty();
        const model = new Set<number>();
        // Plain comparisons rather than expect() per step keep shrinking of long runs fast.
        for (const operation of operations) {
          let agrees: boolean;
          switch (operation.kind) {
            case 'add':
              agrees = set.add(operation.index) === !model.has(operation.index);
              model.add(operation.index);
              break;
            case 'has':
              agrees = set.has(operation.index) === model.has(operation.index);
              break;
            case 'read':
              agrees = set.toString() === naiveFormat([...model]);
              break;
            default: {
              const _exhaustive: never = operation;
              throw new Error(`unknown operation ${String(_exhaustive)}`);
            }
          }
          if (!agrees || set.size !== model.size) return false;
        }
        for (let index = 0; index <= 1_501; index++) if (set.has(index) !== model.has(index)) return false;
        return set.toString() === naiveFormat([...model]);
      }),
      { numRuns: 100 },
    );
  });

  it('counts the intersection as a naive model does', () => {
    fc.assert(
      fc.property(indexesArb, indexesArb, (a, b) => {
        const inB = new Set(b);
        const want = new Set(a.filter((index) => inB.has(index))).size;

        expect(IndexSet.of(...a).countWithin(IndexSet.of(...b))).toBe(want);
        expect(IndexSet.of(...a).containsAll(IndexSet.of(...b))).toBe(b.every((i) => a.includes(i)));
      }),
    );
  });

  it('picks the same lowest missing indexes as a naive scan', () => {
    fc.assert(
      fc.property(indexesArb, fc.nat({ max: 30 }), fc.nat({ max: 450 }), fc.nat({ max: 4 }), (indexes, count, limit, modulus) => {
        const taken = new Set(indexes);
        const skip = (index: number): boolean => modulus > 1 && index % modulus === 0;
        const want: number[] = [];
        for (let index = 0; index < limit && want.length < count; index++) {
          if (!taken.has(index) && !skip(index)) want.push(index);
        }

        expect(IndexSet.of(...indexes).firstMissing(count, limit, skip)).toEqual(want);
      }),
    );
  });

  it('parses any text like a split-based model of parseIndexesFromString, without throwing', () => {
    const textArb = fc.string({ unit: fc.constantFrom('0', '1', '2', '3', '7', '9', ',', '-', '+', ' ', 'x'), maxLength: 40 });
    fc.assert(
      fc.property(textArb, fc.nat({ max: 40 }), (text, completions) => {
        const parsed = parseIndexes(text, completions);

        expect([...parsed]).toEqual(naiveParse(text, completions));
        const strict = validateIndexesFormat(text, completions);
        if (strict.ok) expect(parsed.size).toBe(strict.total);
      }),
      { numRuns: 500 },
    );
  });
});

function naiveRange(first: number, last: number): number[] {
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

function naiveSorted(indexes: number[]): number[] {
  return [...new Set(indexes)].sort((a, b) => a - b);
}

function naiveFormat(indexes: number[]): string {
  const parts: string[] = [];
  const sorted = naiveSorted(indexes);
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    const [first, last] = [sorted[i]!, sorted[j]!];
    parts.push(last === first ? `${first}` : last === first + 1 ? `${first},${last}` : `${first}-${last}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** Upstream parseIndexesFromString with strings.Split and a regex Atoi, then a plain Set. */
function naiveParse(text: string, completions: number): number[] {
  const atoi = (part: string): number | undefined => (/^[+-]?\d+$/.test(part) ? Number(part) : undefined);
  const indexes: number[] = [];
  if (text === '') return indexes;
  for (const fragment of text.split(',')) {
    const limits = fragment.split('-');
    const first = atoi(limits[0]!);
    if (first === undefined) continue;
    if (first >= completions) break;
    let last = first;
    if (limits.length > 1) {
      const parsed = atoi(limits[1]!);
      if (parsed === undefined) continue;
      last = Math.min(parsed, completions - 1);
    }
    indexes.push(...(first <= last ? naiveRange(first, last) : []));
  }
  return naiveSorted(indexes);
}
