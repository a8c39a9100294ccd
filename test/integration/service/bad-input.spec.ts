import { describeOnDynamoDbLocal } from './dynamodb-service-store.ts';
import { describeBadInput } from './bad-input.suite.ts';

// The in-memory run is test/unit/service/bad-input.spec.ts.
describeOnDynamoDbLocal(describeBadInput);
