import { describeOnDynamoDbLocal } from './dynamodb-service-store.ts';
import { describeConcurrentReconcilers } from './concurrent-reconcilers.suite.ts';

// The in-memory run is test/unit/service/concurrent-reconcilers.spec.ts.
describeOnDynamoDbLocal(describeConcurrentReconcilers);
