import { describeWriterBigJob } from '../../integration/service/writer-big-job.suite.ts';
import { inMemoryServiceStore } from '../../integration/service/service-store.ts';

describeWriterBigJob('in-memory', inMemoryServiceStore, { pods: 3000, batchSize: 500 });
describeWriterBigJob('in-memory, one record per batch', inMemoryServiceStore, { pods: 300, batchSize: 1 });
