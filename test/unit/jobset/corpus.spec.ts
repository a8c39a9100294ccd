import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { jobSetScenarioKind } from '../../../cli/conformance/kinds/jobset-scenario.ts';

// The public JobSet corpus lives beside the repository (materials in /work/shared).
const CORPUS = new URL('../../../../shared/conformance/jobset/', import.meta.url);

const files = readdirSync(CORPUS).filter((file) => file.endsWith('.json')).sort();

describe('JobSet conformance corpus', () => {
  it('holds the 35 published scenarios', () => {
    expect(files).toHaveLength(35);
  });

  for (const file of files) {
    const document: unknown = JSON.parse(readFileSync(new URL(file, CORPUS), 'utf8'));
    const id = (document as { id?: string }).id ?? file;
    it(id, () => {
      expect(jobSetScenarioKind.matches(document)).toBe(true);
      const result = jobSetScenarioKind.run(document, file);
      expect(result.error).toBeUndefined();
      expect(result.diffs).toEqual([]);
    });
  }
});
