import type { CorpusKind } from '../types.ts';
import { jobScenarioKind } from './job-scenario.ts';
import { validationCaseKind } from './validation-case.ts';
import { jobSetScenarioKind } from './jobset-scenario.ts';
import { jobSetValidationCaseKind } from './jobset-validation-case.ts';

/** Every corpus format the runner knows; the first whose `matches` accepts a file runs it. */
export const corpusKinds: readonly CorpusKind[] = [validationCaseKind, jobSetValidationCaseKind, jobSetScenarioKind, jobScenarioKind];
