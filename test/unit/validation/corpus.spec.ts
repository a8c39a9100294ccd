import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validationCaseKind } from '../../../cli/conformance/kinds/validation-case.ts';

const CORPUS_DIR = new URL('../../../../shared/conformance/k8s-validation/', import.meta.url);

const cases = readdirSync(CORPUS_DIR)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => {
    const document: unknown = JSON.parse(readFileSync(new URL(file, CORPUS_DIR), 'utf8'));
    const id = (document as { id?: unknown }).id;
    return { file, document, id: typeof id === 'string' ? id : file };
  });

describe('k8s-validation corpus', () => {
  it('finds the 85 cases of the corpus', () => {
    expect(cases).toHaveLength(85);
  });

  it.each(cases)('$id', ({ file, document }) => {
    expect(validationCaseKind.matches(document)).toBe(true);

    const result = validationCaseKind.run(document, file);

    expect(result.error).toBeUndefined();
    expect(result.diffs).toEqual([]);
  });
});
