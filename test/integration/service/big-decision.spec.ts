import { describeOnDynamoDbLocal } from './dynamodb-service-store.ts';
import { describeBigDecision } from './big-decision.suite.ts';

// 3,000 pods on DynamoDB Local at real page sizes (3 pages, one step); the crash tests on 100
// pods with tiny pages and steps, so they cross many of both (each append to DynamoDB Local takes
// ~10 ms, and the pods' 6,000 observations are appended one by one before the test starts). The
// in-memory runs, at real sizes and with every crash test at 2,000 pods, are
// test/unit/service/big-decision.spec.ts.
describeOnDynamoDbLocal((label, factory) =>
  describeBigDecision(label, factory, {
    pods: 3000,
    crashPods: 100,
    crashLimits: { pageBytes: 1024, stepBytes: 4096 },
    timeout: 600_000,
  }),
);
