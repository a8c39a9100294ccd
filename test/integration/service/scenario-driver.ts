import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { DEFAULT_CORPUS_ROOT, scenarioFiles } from '../../../cli/conformance/run.ts';
import { JobScenarioSchema, type JobScenario, type ScenarioEvent } from '../../../cli/scenario/job-scenario.ts';
import { playJobScenario, scenarioGates } from '../../../cli/scenario/play-job-scenario.ts';
import type { LogEntry } from '../../../shared/log/event-store.ts';
import { outboundEvents } from '../../../shared/contract/outbound.ts';
import type { JobCommand } from '../../../shared/job/commands.ts';
import type { Decision } from '../../../shared/job/decisions.ts';
import type { JobStatusView } from '../../../shared/job/status.ts';
import type { FoldConfig } from '../../../shared/job/state.ts';
import type { Pod } from '../../../shared/k8s/pod.ts';
import { timerRecord } from '../../../functions/handlers/writer/timer-record.ts';
import { jobObservedEvent, jobStream, podDeletedEvent, podObservedEvent } from '../../support/inbound-events.ts';
import type { ServiceHarness } from '../../support/service-harness.ts';

// Drives a k8s-job corpus scenario end to end through the writer: the Job as `Job Observed`
// (with the first group), pods as `Pod Observed` owned by the Job, `PodDeleted` as `Pod
// Deleted`, `Tick` as a timer record; each group of events sharing an `at` is one ingest-stream
// batch, after which the writer has decided at `at`.

/** What one group's batch left: the status and the decided commands as `type:pod name or index`. */
export interface GroupOutcome {
  readonly at: string;
  readonly status: JobStatusView;
  readonly commands: readonly string[];
}

export interface ScenarioDrive {
  readonly groups: readonly GroupOutcome[];
  /** Scenario event indexes in the order the log stored them (the ingest batch may reorder). */
  readonly arrival: readonly number[];
}

export function corpusScenarios(): Array<{ id: string; scenario: JobScenario }> {
  return scenarioFiles([join(DEFAULT_CORPUS_ROOT, 'k8s-job')]).map((file) => ({
    id: basename(file, '.json'),
    scenario: JobScenarioSchema.parse(JSON.parse(readFileSync(file, 'utf8'))),
  }));
}

/** The same scenario with another Job uid (pods name their Job only through the driver). */
export function withJobUid(scenario: JobScenario, uid: string): JobScenario {
  return { ...scenario, job: { ...scenario.job, metadata: { ...scenario.job.metadata, uid } } };
}

/** The corpus README: upstream feeds Jobs that API validation would refuse; do not validate. */
export function scenarioConfig(scenario: JobScenario): FoldConfig {
  return { gates: scenarioGates(scenario), validateSpecs: false };
}

export async function driveScenario(h: ServiceHarness, scenario: JobScenario, clusterId: string): Promise<ScenarioDrive> {
  const { job, events } = scenario;
  const stream = jobStream(job, clusterId);
  // The Job is observed in the first snapshot, with the first group's events.
  const firstAt = events[0]?.at ?? job.metadata.creationTimestamp ?? '1970-01-01T00:00:00Z';
  const pods = new Map<string, Pod>();
  const groups: GroupOutcome[] = [];
  let head = 0;
  for (let i = 0; i < events.length; ) {
    const at = (events[i] as ScenarioEvent).at;
    h.clock.now = at;
    const batch: unknown[] = i === 0 ? [jobObservedEvent(job, firstAt, { clusterId, eventId: 'job' })] : [];
    for (; i < events.length && events[i]?.at === at; i++) {
      const event = events[i] as ScenarioEvent;
      const eventId = `event-${i}`;
      if (event.type === 'Pod') {
        pods.set(event.pod.metadata.uid, event.pod);
        batch.push(podObservedEvent(event.pod, job, at, { clusterId, eventId }));
      } else if (event.type === 'PodDeleted') {
        const pod = pods.get(event.uid) ?? { metadata: { name: event.uid, namespace: job.metadata.namespace, uid: event.uid } };
        batch.push(podDeletedEvent(pod, job, at, { clusterId, eventId }));
      } else if (event.type === 'Job') {
        batch.push(jobObservedEvent(event.job, at, { clusterId, eventId }));
      } else {
        // The timer's record keeps its place among the group's records.
        batch.push(timerRecord(stream, at));
      }
    }
    // One batch per group: the writer decides once after it, at its time.
    await expectDelivered(h, batch);
    const { entries } = await h.store.read(stream, { afterSeq: head });
    head = entries.at(-1)?.seq ?? head;
    groups.push({ at, status: await h.status(stream), commands: loggedCommands(entries) });
  }
  return { groups, arrival: arrivalOrder(await h.log(stream), events) };
}

/** The pure fold's answer, with each group's events in the order the service stored them. */
export function foldScenario(scenario: JobScenario, arrival: readonly number[]) {
  const events = arrival.map((i) => scenario.events[i] as ScenarioEvent);
  const run = playJobScenario({ ...scenario, events }, { validateSpecs: false });
  const { identity, settings } = run.state;
  return {
    groups: run.syncs.map((sync) => ({ at: sync.at, status: sync.status, commands: foldCommands(sync.commands) })),
    /** What reaches the bus, as `detail-type commandId`, sorted. */
    outbound: run.syncs
      .flatMap((sync) => outboundEvents(identity, settings?.managedBy, sync.decisions, sync.commands))
      .map((e) => `${e.detailType} ${e.commandId}`)
      .sort(),
  };
}

async function expectDelivered(h: ServiceHarness, batch: readonly unknown[]): Promise<void> {
  if (batch.length === 0) return;
  const failed = await h.deliver(batch, batch.length);
  if (failed.length > 0 || h.rejected.length > 0) {
    throw new Error(`ingest refused a scenario event: ${JSON.stringify(h.rejected.map((r) => r.reason))}`);
  }
}

/** The commands a batch decided, read back from the decisions it logged (one per pod). */
export function loggedCommands(entries: readonly LogEntry[]): string[] {
  const commands: string[] = [];
  for (const entry of entries) {
    const decision = entry.body as Decision;
    if (decision.type === 'PodsTerminationRequested') commands.push(...decision.pods.map((p) => `TerminatePod:${p.name}`));
    if (decision.type === 'PodCreationsRequested') {
      for (let n = 0; n < decision.count; n++) commands.push(`CreatePod:${decision.indexes?.[n] ?? '-'}`);
    }
  }
  return commands.sort();
}

function foldCommands(commands: readonly JobCommand[]): string[] {
  return commands
    .flatMap((c) => (c.type === 'TerminatePod' ? [`TerminatePod:${c.podName}`] : c.type === 'CreatePod' ? [`CreatePod:${c.index ?? '-'}`] : []))
    .sort();
}

/** Scenario event indexes in log order; a Tick is logged as `tick/<at>` (no two share an `at`). */
function arrivalOrder(log: readonly LogEntry[], events: readonly ScenarioEvent[]): number[] {
  const tickAt = new Map<string, number>(events.flatMap((e, i) => (e.type === 'Tick' ? [[`tick/${e.at}`, i] as const] : [])));
  return log.flatMap((entry) => {
    const index = /^event-(\d+)$/.exec(entry.eventId)?.[1] ?? tickAt.get(entry.eventId);
    return index === undefined ? [] : [Number(index)];
  });
}
