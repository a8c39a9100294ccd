import type { JobSetCommand } from '../../shared/jobset/index.ts';
import type { JobSetEvent } from '../../shared/jobset/index.ts';
import type { JobSetState } from '../../shared/jobset/index.ts';

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

/** What was replayed, for the header of the output. */
export interface JobSetReplaySource {
  readonly file: string;
  readonly kind: 'jobset-scenario' | 'jobset-trace';
  /** The scenario's id, for a scenario. */
  readonly id: string | undefined;
}
