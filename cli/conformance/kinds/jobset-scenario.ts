import {
  jobSetStatus,
  listChildJobs,
  startedReplicatedJobs,
  type JobManifest,
  type JobSetCommand,
  type JobSetState,
} from '../../../shared/jobset/index.ts';
import { isJobSetScenario, JobSetScenarioSchema, type JobSetScenario } from '../../scenario/jobset-scenario.ts';
import { playJobSetScenario } from '../../scenario/play-jobset-scenario.ts';
import type { CorpusKind, FieldDiff, ScenarioResult } from '../types.ts';

/**
 * JobSet fold scenarios (`../shared/conformance/jobset/`, README there): a JobSet, child-Job
 * events, and a checkpoint after each event. After the JobSet is observed and after every event
 * the fold reconciles to its fixed point (`settle`); each checkpoint then compares the fields
 * its `expect` holds, and only those. The project's own JobSet scenarios
 * (test/conformance/jobset/README.md) use a few more events (`Tick`, `JobSetMarkedForDeletion`,
 * `JobSetDeleted`) and checkpoint fields (`wakeAt`, `jobManifests`, `childJobCount`,
 * `terminatingChildJobCount`, `conditionsInclude`, `replicatedJobsStatusInclude`, and
 * `DeleteJobSet` among the commands).
 */

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const jobSetScenarioKind: CorpusKind = {
  name: 'jobset',
  matches: isJobSetScenario,
  run(document, file) {
    const parsed = JobSetScenarioSchema.safeParse(document);
    const fallbackId = isRecord(document) && typeof document.id === 'string' ? document.id : file;
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { id: fallbackId, file, diffs: [], error: `malformed scenario at ${issue?.path.join('.')}: ${issue?.message}` };
    }
    try {
      return runScenario(parsed.data, file);
    } catch (error) {
      return { id: parsed.data.id, file, diffs: [], error: error instanceof Error ? error.message : String(error) };
    }
  },
};

function runScenario(scenario: JobSetScenario, file: string): ScenarioResult {
  const expectations = new Map(scenario.checkpoints.map((c, k) => [c.afterEvent, { ...c, index: k }]));
  const diffs: FieldDiff[] = [];
  // The manifest of the last CreateJob issued for each child Job name.
  const manifests = new Map<string, JobManifest>();
  for (const sync of playJobSetScenario(scenario).syncs) {
    const n = sync.afterEvent;
    for (const command of sync.commands) if (command.type === 'CreateJob') manifests.set(command.name, command.job);
    if (!sync.converged) diffs.push({ at: `after event ${n}`, path: 'reconcile', expected: 'a fixed point', actual: 'no fixed point' });
    const checkpoint = expectations.get(n);
    if (checkpoint === undefined) continue;
    const at = `checkpoint ${checkpoint.index} (after event ${n})`;
    diffs.push(...compareCheckpoint(at, checkpoint.expect, sync.state, { commands: sync.commands, wakeAt: sync.wakeAt, manifests }));
  }
  for (const checkpoint of scenario.checkpoints.filter((c) => c.afterEvent > scenario.events.length)) {
    const at = `checkpoint (after event ${checkpoint.afterEvent})`;
    diffs.push({ at, path: 'afterEvent', expected: `<= ${scenario.events.length}`, actual: checkpoint.afterEvent });
  }
  return { id: scenario.id, file, diffs };
}

/** The corpus shape of a command. */
function corpusCommand(command: JobSetCommand): Record<string, unknown> {
  switch (command.type) {
    case 'CreateJob': {
      const { name, replicatedJob, jobIndex, restartAttempt, suspend } = command;
      return { kind: 'CreateJob', name, replicatedJob, jobIndex, restartAttempt, suspend };
    }
    case 'DeleteJob':
      return { kind: 'DeleteJob', name: command.name, propagationPolicy: command.propagationPolicy };
    case 'SuspendJob':
    case 'ResumeJob':
      return { kind: command.type, name: command.name };
    case 'DeleteJobSet':
      return { kind: 'DeleteJobSet', name: command.name, propagationPolicy: command.propagationPolicy };
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

/** What a settle left besides the state: its commands, its wake-up, the Jobs' manifests so far. */
interface SettleResult {
  readonly commands: readonly JobSetCommand[];
  readonly wakeAt: string | undefined;
  readonly manifests: ReadonlyMap<string, JobManifest>;
}

function compareCheckpoint(at: string, expect: Record<string, unknown>, state: JobSetState, result: SettleResult): FieldDiff[] {
  const { commands, wakeAt, manifests } = result;
  const status = jobSetStatus(state);
  const spec = state.jobSet?.spec;
  const actual: Record<string, unknown> = {
    conditions: status.conditions.map(({ type, status: s, reason, message }) => ({ type, status: s, reason, message })),
    terminalState: status.terminalState,
    restarts: status.restarts,
    restartsCountTowardsMax: status.restartsCountTowardsMax,
    replicatedJobsStatus: status.replicatedJobsStatus,
    replicatedJobsStarted: spec === undefined ? [] : startedReplicatedJobs(spec, status.replicatedJobsStatus),
    commands: commands.map(corpusCommand),
    childJobs: listChildJobs(state),
  };
  const diffs: FieldDiff[] = [];
  for (const [field, expected] of Object.entries(expect)) {
    const value = actual[field];
    switch (field) {
      case 'conditions':
        diffs.push(...compareKeyed(at, field, expected, value, 'type'));
        break;
      case 'replicatedJobsStatus':
      case 'childJobs':
        diffs.push(...compareKeyed(at, field, expected, value, 'name'));
        break;
      case 'commands':
        diffs.push(...compareMultiset(at, field, expected, value));
        break;
      case 'terminalState':
      case 'restarts':
      case 'restartsCountTowardsMax':
      case 'replicatedJobsStarted':
        if (canonical(expected) !== canonical(value)) diffs.push({ at, path: field, expected, actual: value });
        break;
      case 'childJobCount':
      case 'terminatingChildJobCount': {
        const jobs = listChildJobs(state).filter((job) => field === 'childJobCount' || job.terminating);
        if (expected !== jobs.length) diffs.push({ at, path: field, expected, actual: jobs.length });
        break;
      }
      case 'conditionsInclude':
        diffs.push(...compareIncluded(at, field, expected, actual['conditions'], 'type'));
        break;
      case 'replicatedJobsStatusInclude':
        diffs.push(...compareIncluded(at, field, expected, actual['replicatedJobsStatus'], 'name'));
        break;
      case 'wakeAt':
        // An instant: RFC 3339 with or without a fraction of a second.
        if (instant(expected) !== instant(wakeAt ?? null)) diffs.push({ at, path: field, expected, actual: wakeAt ?? null });
        break;
      case 'jobManifests':
        diffs.push(...compareManifests(at, expected, manifests));
        break;
      default:
        diffs.push({ at, path: field, expected, actual: '<field not supported by the jobset runner>' });
    }
  }
  return diffs;
}

/**
 * `jobManifests`: for each listed Job, the manifest of the last CreateJob issued for it. Only the
 * listed parts are compared, key by key: `labels`, `annotations`, and under `podTemplate` its
 * `labels`, `annotations` and `subdomain`. A key listed as null must be absent.
 */
function compareManifests(at: string, expected: unknown, manifests: ReadonlyMap<string, JobManifest>): FieldDiff[] {
  const diffs: FieldDiff[] = [];
  for (const item of Array.isArray(expected) ? expected.filter(isRecord) : []) {
    const name = String(item['name']);
    const manifest = manifests.get(name);
    const path = `jobManifests[${name}]`;
    if (manifest === undefined) {
      diffs.push({ at, path, expected: 'a CreateJob command', actual: undefined });
      continue;
    }
    const pod = manifest.spec.template;
    const parts: [string, unknown, Record<string, unknown> | undefined][] = [
      ['labels', item['labels'], manifest.metadata.labels],
      ['annotations', item['annotations'], manifest.metadata.annotations],
    ];
    const podTemplate = isRecord(item['podTemplate']) ? item['podTemplate'] : {};
    parts.push(['podTemplate.labels', podTemplate['labels'], pod.metadata?.labels]);
    parts.push(['podTemplate.annotations', podTemplate['annotations'], pod.metadata?.annotations]);
    if ('subdomain' in podTemplate) {
      parts.push(['podTemplate', { subdomain: podTemplate['subdomain'] }, { subdomain: pod.spec.subdomain }]);
    }
    for (const [part, wanted, actual] of parts) {
      if (!isRecord(wanted)) continue;
      for (const [key, value] of Object.entries(wanted)) {
        const found = actual?.[key] ?? null;
        if (canonical(value) !== canonical(found)) diffs.push({ at, path: `${path}.${part}[${key}]`, expected: value, actual: found });
      }
    }
  }
  return diffs;
}

/** Each listed item must be present (matched by `key`) with the listed fields; others are not looked at. */
function compareIncluded(at: string, field: string, expected: unknown, actual: unknown, key: string): FieldDiff[] {
  const actualItems = Array.isArray(actual) ? actual.filter(isRecord) : [];
  const diffs: FieldDiff[] = [];
  for (const item of Array.isArray(expected) ? expected.filter(isRecord) : []) {
    const found = actualItems.find((candidate) => candidate[key] === item[key]);
    const mismatch = found === undefined || Object.entries(item).some(([name, value]) => canonical(value) !== canonical(found[name]));
    if (mismatch) diffs.push({ at, path: `${field}[${String(item[key])}]`, expected: item, actual: found });
  }
  return diffs;
}

/** Order-insensitive comparison of two lists of objects identified by `key`, field by field. */
function compareKeyed(at: string, field: string, expected: unknown, actual: unknown, key: string): FieldDiff[] {
  const expectedItems = Array.isArray(expected) ? expected.filter(isRecord) : [];
  const actualItems = Array.isArray(actual) ? actual.filter(isRecord) : [];
  const byKey = new Map(actualItems.map((item) => [String(item[key]), item]));
  const diffs: FieldDiff[] = [];
  for (const item of expectedItems) {
    const id = String(item[key]);
    const found = byKey.get(id);
    byKey.delete(id);
    if (found === undefined) {
      diffs.push({ at, path: `${field}[${id}]`, expected: item, actual: undefined });
      continue;
    }
    for (const [name, value] of Object.entries(item)) {
      if (canonical(value) !== canonical(found[name])) {
        diffs.push({ at, path: `${field}[${id}].${name}`, expected: value, actual: found[name] });
      }
    }
  }
  for (const [id, extra] of byKey) diffs.push({ at, path: `${field}[${id}]`, expected: undefined, actual: extra });
  return diffs;
}

/** Order-insensitive multiset comparison: one diff per missing and per unexpected item. */
function compareMultiset(at: string, field: string, expected: unknown, actual: unknown): FieldDiff[] {
  const remaining = (Array.isArray(actual) ? actual : []).map(canonical);
  const actualItems = Array.isArray(actual) ? [...actual] : [];
  const diffs: FieldDiff[] = [];
  for (const item of Array.isArray(expected) ? expected : []) {
    const index = remaining.indexOf(canonical(item));
    if (index < 0) {
      diffs.push({ at, path: `${field}[missing]`, expected: item, actual: undefined });
      continue;
    }
    remaining.splice(index, 1);
    actualItems.splice(index, 1);
  }
  for (const extra of actualItems) diffs.push({ at, path: `${field}[unexpected]`, expected: undefined, actual: extra });
  return diffs;
}

const instant = (value: unknown): number | null => (typeof value === 'string' ? Date.parse(value) : null);

/** JSON with sorted keys, so equal values compare equal regardless of key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    isRecord(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}
