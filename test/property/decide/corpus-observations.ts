import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CORPUS_ROOT, scenarioFiles } from '../../../cli/conformance/run.ts';
import { isJobScenario, JobScenarioSchema, type JobScenario } from '../../../cli/scenario/job-scenario.ts';
import { SCENARIO_CLUSTER, toObservation } from '../../../cli/scenario/play-job-scenario.ts';
import type { Observation } from '../../../shared/job/events.ts';
import { T0 } from '../../support/builders.ts';

// The Job scenarios of the shared conformance corpus, as the properties over batching replay them.

/** Every Job scenario of the k8s-job and seed-stories corpora. */
export function corpus(): JobScenario[] {
  return ['k8s-job', 'seed-stories'].flatMap((dir) =>
    scenarioFiles([join(DEFAULT_CORPUS_ROOT, dir)])
      .map((file) => JSON.parse(readFileSync(file, 'utf8')) as unknown)
      .filter(isJobScenario)
      .map((document) => JobScenarioSchema.parse(document)),
  );
}

/** The scenario as the service logs it: the Job observed in the first snapshot, then its events. */
export function scenarioObservations(scenario: JobScenario): Observation[] {
  const firstAt = scenario.events[0]?.at ?? scenario.job.metadata.creationTimestamp ?? T0;
  const job: Observation = { type: 'JobObserved', eventId: 'job', clusterId: SCENARIO_CLUSTER, observedAt: firstAt, job: scenario.job };
  return [job, ...scenario.events.map((event, i) => toObservation(event, i))];
}
