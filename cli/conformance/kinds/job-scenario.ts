import type { CreatePod, JobCommand, TerminatePod } from '../../../shared/job/index.ts';
import { JOBFOLD_CONTROLLER_NAME } from '../../../shared/job/index.ts';
import type { JobCondition } from '../../../shared/job/index.ts';
import { isJobScenario, JobScenarioSchema, type CheckpointExpect, type JobScenario } from '../../scenario/job-scenario.ts';
import { playJobScenario, type SyncRecord } from '../../scenario/play-job-scenario.ts';
import { diffExpected, diffUnordered } from '../diff.ts';
import type { CorpusKind, FieldDiff, ScenarioResult } from '../types.ts';

/** Job scenarios (k8s-job, seed-stories): play them and check every checkpoint. */
export const jobScenarioKind: CorpusKind = {
  name: 'job',
  matches: isJobScenario,
  run(document: unknown, file: string): ScenarioResult {
    const parsed = JobScenarioSchema.safeParse(document);
    const id = (document as { id?: string }).id ?? file;
    if (!parsed.success) {
      return { id, file, diffs: [], error: `malformed scenario: ${formatIssues(parsed.error.issues)}` };
    }
    const scenario = parsed.data;
    const run = playJobScenario(scenario);
    const managed = scenario.checkpoints.some((c) => c.expect.podPatches !== undefined) ? playJobScenario(asJobfolds(scenario)) : undefined;
    const diffs: FieldDiff[] = [];
    scenario.checkpoints.forEach((checkpoint, n) => {
      const syncOf = (syncs: readonly SyncRecord[]) => syncs.find((s) => s.eventIndexes.includes(checkpoint.afterEvent));
      const sync = syncOf(run.syncs);
      const at = `checkpoint ${n} (after event ${checkpoint.afterEvent})`;
      if (!sync) diffs.push({ at, path: 'sync', expected: 'a sync for this event', actual: 'none' });
      else diffs.push(...checkSync(at, checkpoint.expect, sync));
      const patches = checkpoint.expect.podPatches;
      const managedSync = managed && syncOf(managed.syncs);
      if (patches !== undefined && managedSync) {
        const removals = managedSync.commands.filter((c) => c.type === 'RemovePodFinalizer').length;
        diffs.push(...diffExpected(at, 'podPatches', patches, removals));
      }
    });
    return { id: scenario.id, file, diffs };
  },
};

/** The same scenario with jobfold as the Job's controller: finalizer removals become commands. */
function asJobfolds(scenario: JobScenario): JobScenario {
  const { job } = scenario;
  return { ...scenario, job: { ...job, spec: { ...job.spec, managedBy: JOBFOLD_CONTROLLER_NAME } } };
}

function checkSync(at: string, expect: CheckpointExpect, sync: SyncRecord): FieldDiff[] {
  const diffs: FieldDiff[] = [];
  const conditions = sync.status.conditions.map(({ type, status, reason, message }) => ({ type, status, reason, message }));
  if (expect.status) {
    for (const [field, expected] of Object.entries(expect.status)) {
      const actual = field === 'conditions' ? conditions : (sync.status as unknown as Record<string, unknown>)[field];
      if (field === 'conditions' && Array.isArray(expected)) diffs.push(...diffConditions(at, expected, conditions));
      else diffs.push(...diffExpected(at, `status.${field}`, expected, actual));
    }
  }
  const created = sync.commands.filter((c): c is CreatePod => c.type === 'CreatePod');
  const terminated = sync.commands.filter((c): c is TerminatePod => c.type === 'TerminatePod');
  if (expect.podsCreated !== undefined) diffs.push(...diffExpected(at, 'podsCreated', expect.podsCreated, created.length));
  if (expect.createdIndexes !== undefined) {
    diffs.push(...diffUnordered(at, 'createdIndexes', expect.createdIndexes, created.map((c) => c.index)));
  }
  if (expect.terminatedPodsCount !== undefined) {
    diffs.push(...diffExpected(at, 'terminatedPodsCount', expect.terminatedPodsCount, terminated.length));
  }
  if (expect.terminatedPods !== undefined) {
    diffs.push(...diffUnordered(at, 'terminatedPods', expect.terminatedPods, terminated.map((c) => c.podName)));
  }
  diffs.push(...partialConditionChecks(at, expect, conditions));
  return diffs;
}

type ConditionView = Pick<JobCondition, 'type' | 'status' | 'reason' | 'message'>;

function diffConditions(at: string, expected: unknown[], actual: ConditionView[]): FieldDiff[] {
  const diffs = diffExpected(at, 'status.conditions', expected, actual);
  return diffs.length === 0 ? [] : [{ at, path: 'status.conditions', expected, actual }];
}

const matchesPattern = (c: ConditionView, pattern: Record<string, string>) =>
  Object.entries(pattern).every(([k, v]) => (c as unknown as Record<string, string>)[k] === v);

function partialConditionChecks(at: string, expect: CheckpointExpect, conditions: ConditionView[]): FieldDiff[] {
  const diffs: FieldDiff[] = [];
  for (const pattern of expect.conditionsInclude ?? []) {
    if (!conditions.some((c) => matchesPattern(c, pattern))) {
      diffs.push({ at, path: 'conditionsInclude', expected: pattern, actual: conditions });
    }
  }
  for (const pattern of expect.conditionsExclude ?? []) {
    if (conditions.some((c) => matchesPattern(c, pattern))) {
      diffs.push({ at, path: 'conditionsExclude', expected: `no ${JSON.stringify(pattern)}`, actual: conditions });
    }
  }
  for (const [type, count] of Object.entries(expect.conditionTypeCounts ?? {})) {
    const actual = conditions.filter((c) => c.type === type).length;
    diffs.push(...diffExpected(at, `conditionTypeCounts.${type}`, count, actual));
  }
  if (expect.conditionsCount !== undefined) {
    diffs.push(...diffExpected(at, 'conditionsCount', expect.conditionsCount, conditions.length));
  }
  return diffs;
}

export function formatIssues(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}

export type { JobCommand };
