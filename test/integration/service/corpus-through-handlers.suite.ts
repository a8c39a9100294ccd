import { describe, expect, it } from 'vitest';
import { corpusScenarios, driveScenario, foldScenario, scenarioConfig, withJobUid } from './scenario-driver.ts';
import type { ServiceStoreFactory } from './service-store.ts';
import { createServiceHarness, eventsOfJob } from '../../support/service-harness.ts';

let clusters = 0;

/**
 * Every public k8s-job scenario (or those `select` keeps), driven through the writer over the
 * factory's store, must leave the status and the decided commands of the pure fold after
 * every group's batch. Each scenario gets a cluster of its own, so one store can serve them all.
 */
export function describeCorpusThroughHandlers(
  label: string,
  factory: ServiceStoreFactory,
  select: (id: string, index: number) => boolean = () => true,
): void {
  const cases = corpusScenarios().filter(({ id }, index) => select(id, index));

  describe(`k8s-job corpus through the handlers (${label})`, () => {
    it.each(cases)('$id: same status and commands as the pure fold after every batch', async ({ scenario: original }) => {
      // given the service, set up as the corpus README asks (no spec validation), and a Job
      // whose uid no other scenario uses (command ids are made from it)
      const clusterId = `corpus-${++clusters}`;
      const scenario = withJobUid(original, `${original.job.metadata.uid}-${clusterId}`);
      const { store } = await factory();
      const h = createServiceHarness({ store, config: scenarioConfig(scenario) });

      // when the scenario's events arrive through the ingest stream, one batch per group
      const drive = await driveScenario(h, scenario, clusterId);

      // then every batch left what the fold computes for the events in the order they were logged
      const fold = foldScenario(scenario, drive.arrival);
      expect(drive.groups).toEqual(fold.groups);
      // and the commands that leave jobfold reach the bus, once each
      await h.publish();
      expect(eventsOfJob(h.bus.sent, scenario.job.metadata.uid).map((e) => `${e.detailType} ${e.commandId}`).sort()).toEqual(fold.outbound);
    });
  });
}
