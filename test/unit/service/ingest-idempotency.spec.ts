import { describeIngestIdempotency } from '../../integration/service/ingest-idempotency.suite.ts';
import { inMemoryServiceStore } from '../../integration/service/service-store.ts';

describeIngestIdempotency('in-memory', inMemoryServiceStore);
