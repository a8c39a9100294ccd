import { describeOnDynamoDbLocal } from './dynamodb-service-store.ts';
import { describeBigDecision } from './big-decision.suite.ts';

// 1,000 pods with 200-character names on DynamoDB Local at real page sizes (several 128 KB
// pages); the crash tests on 100 pods with tiny pages and steps, so they cross many of both. Each
// write to DynamoDB Local takes ~10 ms and today's append path writes every observation on its
// own, so 3,000 pods (issue 10's size) take over 10 minutes inside the whole suite: that size runs
// alone with JOBFOLD_BIG_PODS=3000 until the single-writer log pages land. The in-memory runs,
// at real sizes (20,000 pods) and with every crash test at 2,000 pods, are
// test/unit/service/big-decision.spec.ts.
describeOnDynamoDbLocal((label, factory) =>
  describeBigDecision(label, factory, {
    pods: Number(process.env['JOBFOLD_BIG_PODS'] ?? 1000),
    nameLength: 200,
    crashPods: 100,
    crashLimits: { pageBytes: 1024, stepBytes: 4096 },
    timeout: 900_000,
  }),
);
