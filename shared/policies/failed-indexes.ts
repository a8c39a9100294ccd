import { Message, Reason } from '../k8s/job-controller.ts';

export interface FailedIndexesVerdict {
  readonly reason: typeof Reason.MaxFailedIndexesExceeded | typeof Reason.FailedIndexes;
  readonly message: string;
}

/**
 * backoffLimitPerIndex (KEP-3850): more failed indexes than `maxFailedIndexes` fails the Job;
 * otherwise, once every index has either succeeded or failed and at least one failed, the Job
 * fails with `FailedIndexes`.
 */
export function matchFailedIndexes(input: {
  readonly failedIndexes: number;
  readonly succeededIndexes: number;
  readonly maxFailedIndexes: number | undefined;
  readonly completions: number;
}): FailedIndexesVerdict | undefined {
  const { failedIndexes, succeededIndexes, maxFailedIndexes, completions } = input;
  if (maxFailedIndexes !== undefined && failedIndexes > maxFailedIndexes) {
    return { reason: Reason.MaxFailedIndexesExceeded, message: Message.MaxFailedIndexesExceeded };
  }
  if (failedIndexes > 0 && failedIndexes + succeededIndexes >= completions) {
    return { reason: Reason.FailedIndexes, message: Message.FailedIndexes };
  }
  return undefined;
}
