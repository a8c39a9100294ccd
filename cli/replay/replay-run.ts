import type { ScenarioRun, SyncRecord } from '../scenario/play-job-scenario.ts';

/** One reconcile during a replay: its time, what it decided and the status after it. */
export type ReplaySync = Omit<SyncRecord, 'eventIndexes'>;

/** A replayed input: scenario runs (cli/scenario) and JSONL runs have this shape. */
export interface ReplayRun extends Omit<ScenarioRun, 'syncs'> {
  readonly syncs: readonly ReplaySync[];
}

/** What was replayed, for the header of the output. */
export interface ReplaySource {
  readonly file: string;
  readonly kind: 'scenario' | 'jsonl';
  /** The scenario's id, for a scenario. */
  readonly id: string | undefined;
}
