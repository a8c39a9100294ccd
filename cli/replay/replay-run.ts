import type { JobCommand } from '../../shared/job/commands.ts';
import type { Decision } from '../../shared/job/decisions.ts';
import type { JobEvent } from '../../shared/job/evolve.ts';
import type { JobState } from '../../shared/job/state.ts';
import type { JobStatusView } from '../../shared/job/status.ts';

/** One reconcile during a replay: its time, what it decided and the status after it. */
export interface ReplaySync {
  readonly at: string;
  readonly decisions: readonly Decision[];
  readonly commands: readonly JobCommand[];
  readonly status: JobStatusView;
}

/** A replayed input: scenario runs (cli/scenario) and JSONL runs have this shape. */
export interface ReplayRun {
  readonly syncs: readonly ReplaySync[];
  /** The Job's log: observations and decisions, each with its `seq`. */
  readonly log: readonly JobEvent[];
  readonly state: JobState;
}

/** What was replayed, for the header of the output. */
export interface ReplaySource {
  readonly file: string;
  readonly kind: 'scenario' | 'jsonl';
  /** The scenario's id, for a scenario. */
  readonly id: string | undefined;
}
