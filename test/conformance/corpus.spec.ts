import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusKinds } from '../../cli/conformance/kinds/index.ts';
import { DEFAULT_CORPUS_ROOT, formatFailure, passed, PROJECT_CORPUS_DIRS, runScenarioFile, scenarioFiles } from '../../cli/conformance/run.ts';

// One test per corpus file, run exactly as `jobfold conformance` runs it. A directory is run only
// when a corpus kind the runner knows recognises every one of its files; the others show up as
// skipped until their kind is registered in cli/conformance/kinds/index.ts.

const DIRECTORIES = [
  ...['k8s-job', 'seed-stories', 'k8s-validation', 'jobset'].map((name) => join(DEFAULT_CORPUS_ROOT, name)),
  ...PROJECT_CORPUS_DIRS,
];

interface CorpusCase {
  readonly id: string;
  readonly file: string;
  readonly recognised: boolean;
}

function casesOf(directory: string): CorpusCase[] {
  return scenarioFiles([directory]).map((file) => {
    let document: unknown;
    try {
      document = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      return { id: basename(file, '.json'), file, recognised: true }; // the runner reports it
    }
    const id = (document as { id?: unknown }).id;
    return {
      id: typeof id === 'string' ? id : basename(file, '.json'),
      file,
      recognised: corpusKinds.some((kind) => kind.matches(document)),
    };
  });
}

for (const directory of DIRECTORIES) {
  const cases = casesOf(directory);
  const runnable = cases.length > 0 && cases.every((c) => c.recognised);
  describe.skipIf(!runnable)(`conformance corpus: ${basename(directory)}`, () => {
    it.each(cases)('$id', ({ file }) => {
      const result = runScenarioFile(file);
      expect(passed(result), formatFailure(result, DEFAULT_CORPUS_ROOT)).toBe(true);
    });
  });
}
