import { describeCorpusThroughHandlers } from './corpus-through-handlers.suite.ts';
import { describeOnDynamoDbLocal } from './dynamodb-service-store.ts';

// The whole corpus runs on the in-memory store (test/unit/service/corpus-through-handlers.spec.ts);
// on DynamoDB Local, where one scenario takes about a second, a subset keeps the run short: the
// first scenario of each group, the one that deletes a pod, and a deadline met while pods
// terminate (timer ticks across reconciles).
const EXTRA = new Set([
  'backoff-limit__previously-counted-failure-no-new-pod',
  'deadline__deadline-exceeded-failure-target-while-terminating',
]);
const groupsSeen = new Set<string>();
const isInSubset = (id: string): boolean => {
  const group = id.split('__')[0] ?? id;
  const first = !groupsSeen.has(group);
  groupsSeen.add(group);
  return first || EXTRA.has(id);
};

describeOnDynamoDbLocal((label, factory) => describeCorpusThroughHandlers(label, factory, isInSubset));
