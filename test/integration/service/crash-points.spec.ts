import { describeOnDynamoDbLocal } from './dynamodb-service-store.ts';
import { describeCrashPoints } from './crash-points.suite.ts';

// The in-memory run is test/unit/service/crash-points.spec.ts.
describeOnDynamoDbLocal(describeCrashPoints);
