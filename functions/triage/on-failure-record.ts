import * as z from 'zod';

// What Lambda puts in the writer-failures queue (the event source mapping's on-failure
// destination) once it gives up on an ingest-stream batch: which records, never their data nor
// the error. The triage reads the records back from the stream by this range.

const SequenceNumberSchema = z.string().regex(/^\d{1,128}$/, 'must be a Kinesis sequence number (decimal digits)');

export const OnFailureRecordSchema = z.object({
  requestContext: z.object({
    condition: z.string().optional(),
    approximateInvokeCount: z.number().optional(),
  }).partial().optional(),
  timestamp: z.string().optional(),
  KinesisBatchInfo: z.object({
    shardId: z.string().min(1).max(128),
    startSequenceNumber: SequenceNumberSchema,
    endSequenceNumber: SequenceNumberSchema,
    batchSize: z.number().int().nonnegative().optional(),
    streamArn: z.string().optional(),
  }),
});
export type OnFailureRecord = z.infer<typeof OnFailureRecordSchema>;
export type KinesisBatchInfo = OnFailureRecord['KinesisBatchInfo'];

/** The on-failure record in `body`, or undefined when the body is not one (an event from the ingest DLQ). */
export function onFailureRecordOf(body: unknown): OnFailureRecord | undefined {
  if (typeof body !== 'object' || body === null || !('KinesisBatchInfo' in body)) return undefined;
  const parsed = OnFailureRecordSchema.safeParse(body);
  return parsed.success ? parsed.data : undefined;
}

/** `shardId-000000000001 49…22…49…86`, as logs and parked entries name a range. */
export const rangeName = (info: KinesisBatchInfo): string => `${info.shardId} ${info.startSequenceNumber}…${info.endSequenceNumber}`;
