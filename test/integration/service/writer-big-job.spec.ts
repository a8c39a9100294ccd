import { describeOnDynamoDbLocal } from './dynamodb-service-store.ts';
import { describeWriterBigJob } from './writer-big-job.suite.ts';

// 3,000 pods (issue 10's size) through the writer handler on DynamoDB Local, in Kinesis batches
// of 500 records: each batch is a few log-page commits, not one write per event.
describeOnDynamoDbLocal((label, factory) => describeWriterBigJob(label, factory, { pods: 3000, batchSize: 500, timeout: 180_000 }));
