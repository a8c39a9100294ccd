import * as z from 'zod';
import type { LogEntry, StreamId } from '../log/event-store.ts';
import { GENESIS_HASH } from '../log/hash-chain.ts';

// The audit export (`GET …/jobs/{name}/audit`, `jobfold audit`): everything an auditor needs
// to check a Job's history after the Job and its cluster are gone. docs/audit.md.

export const AUDIT_FORMAT = 'jobfold-audit/1';

/** A log entry as stored, with its chain hash. */
export const AuditEntrySchema = z.object({
  seq: z.number().int().positive(),
  eventId: z.string(),
  type: z.string(),
  observedAt: z.string(),
  recordedAt: z.string(),
  body: z.unknown(),
  hash: z.string().optional(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const AuditExportSchema = z.object({
  format: z.literal(AUDIT_FORMAT),
  job: z.object({ kind: z.enum(['Job', 'JobSet']), clusterId: z.string(), namespace: z.string(), name: z.string(), uid: z.string() }),
  /** The spec of the first JobObserved: what the Job was created with. */
  spec: z.unknown(),
  /** The fold that exported (verify refolds with the gates each decision recorded). */
  fold: z.object({ version: z.string(), gates: z.record(z.string(), z.boolean()) }),
  entries: z.array(AuditEntrySchema),
  chain: z.object({ genesis: z.string(), head: z.string().nullable(), length: z.number().int() }),
});
export type AuditExport = z.infer<typeof AuditExportSchema>;

/** The chain summary of the entries exported: the hash an auditor writes down. */
export function chainSummary(entries: readonly { hash?: string }[]): AuditExport['chain'] {
  return { genesis: GENESIS_HASH, head: entries.at(-1)?.hash ?? null, length: entries.length };
}

export const auditJob = (stream: StreamId, name: string): AuditExport['job'] => ({
  kind: stream.kind, clusterId: stream.clusterId, namespace: stream.namespace, name, uid: stream.uid,
});

export const auditEntry = (entry: LogEntry & { hash?: string }): AuditEntry => ({
  seq: entry.seq, eventId: entry.eventId, type: entry.type, observedAt: entry.observedAt, recordedAt: entry.recordedAt, body: entry.body,
  ...(entry.hash === undefined ? {} : { hash: entry.hash }),
});
