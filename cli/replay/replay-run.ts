import type { JobSetCommand, JobSetEvent, JobSetState } from '../../shared/jobset/index.ts';
import type { ScenarioRun, SyncRecord } from '../scenario/play-job-scenario.ts';
import type { ReplayInput } from './load-input.ts';

// What a replay produced, per kind. The kinds play differently (a Job is reconciled once per
// group of events, a JobSet to its fixed point after each event or, for a trace, through the
// service's write loop with its child Jobs), so each keeps its own run; the flow around them
// (args, input, output) is one (cli/replay-command.ts).

/** A replayed input of either kind, and where it came from. */
export type Replayed =
  | { readonly kind: 'Job'; readonly run: ReplayRun; readonly source: ReplaySource }
  | { readonly kind: 'JobSet'; readonly run: JobSetReplayRun; readonly source: ReplaySource };

/** What was replayed, for the header of the output. */
export interface ReplaySource {
  readonly file: string;
  readonly kind: ReplayInput['kind'];
  /** The scenario's id, for a scenario. */
  readonly id: string | undefined;
}

/** One reconcile during a Job's replay: its time, what it decided and the status after it. */
export type ReplaySync = Omit<SyncRecord, 'eventIndexes'>;

/** A replayed Job: scenario runs (cli/scenario) and JSONL runs have this shape. */
export interface ReplayRun extends Omit<ScenarioRun, 'syncs'> {
  readonly syncs: readonly ReplaySync[];
}

/** A JobSet command and when it was issued; `dispatched` only for traces (sent to the cluster or only logged). */
export interface IssuedJobSetCommand {
  readonly at: string;
  readonly command: JobSetCommand;
  readonly dispatched: boolean | undefined;
}

/** A child Job as the replay saw it: the JobSet's view (scenario) or the Job's own log (trace). */
export interface ChildJobRow {
  readonly name: string;
  readonly uid: string | undefined;
  readonly replicatedJob: string | undefined;
  readonly jobIndex: number | undefined;
  readonly restartAttempt: number | undefined;
  /** `Running (1 active, 1 ready)`, `Failed`, `Complete`, `Terminating`, `Failed, deleted`, … */
  readonly status: string;
  /** The reason of the Job's Failed condition, or ''. */
  readonly failureReason: string;
  /** Trace only: the Job explanation's sentence for its Failed condition (rule, pod, exit code). */
  readonly why: string | undefined;
}

/** A replayed JobSet input: a scenario (the JobSet fold alone) or a trace (the whole service). */
export interface JobSetReplayRun {
  /** The cluster a trace came from (its events' source); undefined for a scenario. */
  readonly clusterId: string | undefined;
  readonly state: JobSetState;
  /** The JobSet's log: observations and decisions, each with its (1-based) position. */
  readonly log: readonly { readonly seq: number; readonly event: JobSetEvent }[];
  readonly commands: readonly IssuedJobSetCommand[];
  /** Reconciles of the JobSet (one per scenario step or per group of trace events). */
  readonly reconciles: number;
  readonly childJobs: readonly ChildJobRow[];
}
