import { describeOnDynamoDbLocal } from './dynamodb-service-store.ts';
import { describeBigDecision } from './big-decision.suite.ts';

// The legacy reconcile path (reconcile() after per-event appends; Jobs now go through the single
// writer) and the publisher on DynamoDB Local: 300 pods with 200-character names at real page
// sizes, and the crash tests on 50 pods with tiny pages and steps, so they cross many of both.
// Issue 10's size on DynamoDB Local is writer-big-job.spec.ts (3,000 pods through the writer);
// JOBFOLD_BIG_PODS=1000 runs this file at its former size. The in-memory runs, at real sizes
// (20,000 pods) and with every crash test at 2,000 pods, are test/unit/service/big-decision.spec.ts.
describeOnDynamoDbLocal((label, factory) =>
  describeBigDecision(label, factory, {
    pods: Number(process.env['JOBFOLD_BIG_PODS'] ?? 300),
    nameLength: 200,
    crashPods: 50,
    crashLimits: { pageBytes: 1024, stepBytes: 4096 },
    timeout: 900_000,
  }),
);
