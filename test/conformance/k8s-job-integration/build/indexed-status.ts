import { counts, type Expect } from './story.ts';

/** `validateJobPodsStatus` plus `validateIndexedJobPods`' completed and failed indexes. */
export function indexed(c: Parameters<typeof counts>[0], completedIndexes: string, failedIndexes: string | null): Expect {
  return { ...counts(c), completedIndexes, failedIndexes };
}
