import type { IndexSet } from '../indexes/index-set.ts';

/** One rule of a Job's success policy, as the Job's settings hold it (shared/job/job-settings.ts). */
export interface SuccessPolicyRuleSettings {
  /** `succeededIndexes` parsed leniently against completions, as the controller does. */
  readonly indexes?: IndexSet;
  readonly succeededCount?: number;
}

export interface SuccessPolicyMatch {
  readonly ruleIndex: number;
  readonly message: string;
}

/**
 * How many indexes of each rule's `succeededIndexes` have succeeded. Kept in the fold's state
 * and bumped per newly succeeded index, so matching never rescans 64 KiB of intervals.
 */
export type RuleProgress = number[];

/** Counts each rule's succeeded indexes from scratch: O(intervals), once per spec. */
export function initialRuleProgress(
  rules: readonly SuccessPolicyRuleSettings[],
  succeeded: IndexSet,
): RuleProgress {
  return rules.map((rule) => (rule.indexes ? rule.indexes.countWithin(succeeded) : 0));
}

/** Records one newly succeeded index: O(rules × log intervals). */
export function advanceRuleProgress(
  rules: readonly SuccessPolicyRuleSettings[],
  progress: RuleProgress,
  index: number,
): void {
  for (const [i, rule] of rules.entries()) {
    if (rule.indexes?.has(index)) progress[i] = (progress[i] ?? 0) + 1;
  }
}

/**
 * KEP-3998 `matchSuccessPolicy`: only once some index succeeded; rules in order, first match
 * wins. An indexes rule matches when all its indexes succeeded, or at least `succeededCount` of
 * them; a rule whose parsed indexes are empty is skipped; a count-only rule compares with the
 * total number of succeeded indexes.
 */
export function matchSuccessPolicy(
  rules: readonly SuccessPolicyRuleSettings[] | undefined,
  progress: RuleProgress,
  succeededTotal: number,
): SuccessPolicyMatch | undefined {
  if (rules === undefined || succeededTotal === 0) return undefined;
  for (const [ruleIndex, rule] of rules.entries()) {
    const count = rule.succeededCount;
    if (rule.indexes !== undefined) {
      if (rule.indexes.size === 0) continue;
      const contains = progress[ruleIndex] ?? 0;
      if (contains === rule.indexes.size || (count !== undefined && contains >= count)) {
        return { ruleIndex, message: `Matched rules at index ${ruleIndex}` };
      }
    } else if (count !== undefined && succeededTotal >= count) {
      return { ruleIndex, message: `Matched rules at index ${ruleIndex}` };
    }
  }
  return undefined;
}
