import { JOB_FOLD, JobFolds, type WhatIfInput } from './job-folds.ts';
import { JOBSET_FOLD, JobSetFolds, type JobSetWhatIfInput } from './jobset-folds.ts';
import { replayRecord, type JobSetLogEntry } from './refold.ts';
import type { DecisionSummary, JobSetWhatIfReport, WhatIfReport } from './report.ts';

// The what-if, for every kind (docs/whatif.md): a recorded object refolded under a patched spec,
// next to a refold under the recorded spec. Both folds read the record's observations — the
// patched one with the patch merged into every observation of the object — and are reconciled
// where the record's controller reconciled, at the end of every other batch and at the folds'
// own timers (refold.ts); where the record did not reconcile, only if the patched fold would act
// otherwise. The first reconcile where they decide differently is the divergence: the recorded
// events stop being evidence for the patched world after it, so the refold stops there, and the
// what-if's outcome is exact only if it was reached by then.
//
// That flow is `Folds` (folds.ts), written once. A kind gives its fold (evolve, decide, what a
// decision is compared as, the outcome it settles) and its report: job-folds.ts, jobset-folds.ts.
// A Job adds what a JobSet's log cannot give: its record holds pods, so the what-if keeps the
// pods the patched world would not have had (patched-world.ts), tells the pod time it saves, can
// diverge on how one pod is counted, and checks that the record replays under its own spec; a
// JobSet's what-if tells its restarts instead.

/** Refolds a recorded Job under a patched spec; see the top of this file. */
export function whatIfJob(input: WhatIfInput): WhatIfReport {
  const folds = new JobFolds(input);
  replayRecord(input.log, JOB_FOLD.reading, folds);
  return folds.report();
}

/** Refolds a recorded JobSet under a patched spec; see the top of this file. */
export function whatIfJobSet(input: JobSetWhatIfInput): JobSetWhatIfReport {
  const folds = new JobSetFolds(input);
  replayRecord(input.log, JOBSET_FOLD.reading, folds);
  return folds.report();
}

export { WhatIfInputError } from './folds.ts';
export type { DecisionSummary, JobSetLogEntry, JobSetWhatIfInput, WhatIfInput };
