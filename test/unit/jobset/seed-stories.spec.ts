import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { jobSetScenarioKind } from '../../../cli/conformance/kinds/jobset-scenario.ts';

// Seed 002 Story 2 as JobSet scenarios of our own, in the corpus format.
const FIXTURES = new URL('../../fixtures/jobset/', import.meta.url);

const files = readdirSync(FIXTURES).filter((file) => file.endsWith('.json')).sort();

describe('seed 002 Story 2 through the JobSet fold', () => {
  it('has both stories: exit code 2 fails, exit code 3 restarts', () => {
    expect(files).toEqual([
      'seed-002__story-2-exit-code-2-fails-jobset.json',
      'seed-002__story-2-exit-code-3-restarts-jobset.json',
    ]);
  });

  for (const file of files) {
    const document: unknown = JSON.parse(readFileSync(new URL(file, FIXTURES), 'utf8'));
    const id = (document as { id?: string }).id ?? file;
    it(id, () => {
      const result = jobSetScenarioKind.run(document, file);
      expect(result.error).toBeUndefined();
      expect(result.diffs).toEqual([]);
    });
  }
});
