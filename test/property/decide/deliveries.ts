import fc from 'fast-check';

// How the writer's properties deliver a log's events: Kinesis batches of any size (runs of equal
// times kept whole by batchesOfRuns), some delivered twice (a retried batch). One definition for
// every writer and batching property of this folder.

/** The sizes of the batches, cycled over the events. */
export const batchSizesArb = fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 8 });

/** For each batch in turn, whether it is delivered twice. */
export const redeliverArb = fc.array(fc.boolean(), { maxLength: 8 });
