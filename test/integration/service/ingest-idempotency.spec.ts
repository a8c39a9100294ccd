import { describeOnDynamoDbLocal } from './dynamodb-service-store.ts';
import { describeIngestIdempotency } from './ingest-idempotency.suite.ts';

// The in-memory run is test/unit/service/ingest-idempotency.spec.ts.
describeOnDynamoDbLocal(describeIngestIdempotency);
