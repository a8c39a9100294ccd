import type { CorpusKind } from '../types.ts';
import { jobScenarioKind } from './job-scenario.ts';
import { validationCaseKind } from './validation-case.ts';
import { jobSetScenarioKind } from './jobset-scenario.ts';
import { jobSetValidationCaseKind } from './jobset-validation-case.ts';

// One kind per corpus format. The Job and JobSet scenario kinds stay two: their execution models
// differ (a Job scenario syncs once per group of events and checks the sync after the checkpoint's
// event; a JobSet scenario settles to a fixed point after every event and checks the settled state),
// and so do their checkpoint vocabularies and diff shapes (diff.ts field-by-field for Jobs; keyed,
// included and multiset comparisons for JobSets), which the conformance report prints as they are.

/** Every corpus format the runner knows; the first whose `matches` accepts a file runs it. */
export const corpusKinds: readonly CorpusKind[] = [validationCaseKind, jobSetValidationCaseKind, jobSetScenarioKind, jobScenarioKind];
