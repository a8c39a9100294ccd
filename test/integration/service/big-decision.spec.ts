import { describeOnDynamoDbLocal } from './dynamodb-service-store.ts';
import { describeBigDecision } from './big-decision.suite.ts';

// The one write loop and the publisher on DynamoDB Local: 300 pods with 200-character names at
// real page sizes, and the publisher's crash tests (a checkpoint on the DynamoDB outbox item) on
// 50 pods with tiny pages and steps, so they cross many of both. The writer's crash tests around
// each commit step are not run here: on DynamoDB Local the writer dies before and after each
// commit step of a paged decision in writer-exactly-once.spec.ts, and around each step at 2,000
// pods in test/unit/service/big-decision.spec.ts. Issue 10's size on DynamoDB Local is
// writer-big-job.spec.ts (3,000 pods through the writer handler); JOBFOLD_BIG_PODS=1000 runs this
// file at its former size. The in-memory runs, at real sizes (20,000 pods) and with every crash
// test at 2,000 pods, are test/unit/service/big-decision.spec.ts.
describeOnDynamoDbLocal((label, factory) =>
  describeBigDecision(label, factory, {
    pods: Number(process.env['JOBFOLD_BIG_PODS'] ?? 300),
    nameLength: 200,
    crashPods: 50,
    crashLimits: { pageBytes: 1024, stepBytes: 4096 },
    commitCrashes: false,
    timeout: 900_000,
  }),
);
