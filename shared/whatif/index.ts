// The what-if, one entry point for every caller (the CLI, the query API, the advice): refold a
// recorded Job or JobSet under a patched spec next to its record (docs/whatif.md), and tally a
// fleet of Job reports. Inside: the refold, written once for every kind (what-if.ts, folds.ts;
// each kind's fold in job-folds.ts, jobset-folds.ts), the patch (patch.ts), what the folds are
// compared on (decision-summary.ts), the outcomes (outcome.ts), the pods' recorded time
// (pod-spans.ts), the report's shape (report.ts), its sentences (describe-decision.ts).
// (The web console bundles shared/advise's view of the advice: what it reaches of the what-if
// imports the small modules itself, not this index, which brings the folds.)

export { whatIfJob, whatIfJobSet, WhatIfInputError, type WhatIfInput, type JobSetWhatIfInput, type JobSetLogEntry } from './what-if.ts';
export { patchJob, patchJobSet, mergeJob, mergeJobSet, WhatIfPatchError } from './patch.ts';
export { recordedOutcome, recordedJobSetOutcome, outcomeOf } from './outcome.ts';
export { podSpans, recordedAfter, type PodSpans } from './pod-spans.ts';
export { describeDecisions, type AnyDecisionSummary } from './describe-decision.ts';
export { EMPTY_TALLY, changeOf, mergeTallies, outcomeLabel, round, skipJob, tallyJob, type ChangedJob, type FleetTally, type JobChange } from './fleet.ts';
export type * from './report.ts';
