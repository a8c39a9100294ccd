import { readFileSync } from 'node:fs';
import { JobScenarioSchema } from '../../../cli/scenario/job-scenario.ts';
import { playJobScenario, type PlayOptions, type ScenarioRun } from '../../../cli/scenario/play-job-scenario.ts';

const CORPUS = new URL('../../../../shared/conformance/', import.meta.url);
const REPO = new URL('../../../', import.meta.url);

/** Plays a corpus scenario (`k8s-job/…`, `seed-stories/…`) or a repo file (`samples/…`). */
export function playScenario(path: string, options: PlayOptions = {}): ScenarioRun {
  const base = path.startsWith('samples/') ? REPO : CORPUS;
  const document: unknown = JSON.parse(readFileSync(new URL(path, base), 'utf8'));
  return playJobScenario(JobScenarioSchema.parse(document), options);
}
