import { auditEntry, AUDIT_FORMAT, auditJob } from '../../../shared/audit/audit-format.ts';
import { FOLD_VERSION } from '../../../shared/audit/fold-version.ts';
import type { QueryRoute } from '../http.ts';
import { HistoryQuerySchema } from '../params.ts';
import { objectRoute } from './object-route.ts';

/**
 * `GET …/jobs/{name}/audit?uid=&after=&limit=`: one page of the Job's audit export
 * (docs/audit.md): the Job, the spec it was created with, the fold, and the stored entries
 * after `after` with their chain hashes. `jobfold audit` follows `nextAfter` and writes the
 * pages as one self-contained document.
 */
export const jobAuditRoute: QueryRoute = objectRoute('Job', '/audit', HistoryQuerySchema, async ({ summary, stream }, query, deps) => {
  const page = await deps.store.read(stream, { afterSeq: query.after, limit: query.limit });
  const first = query.after === 0 ? page.entries[0] : (await deps.store.read(stream, { afterSeq: 0, limit: 1 })).entries[0];
  const spec = first?.type === 'JobObserved' ? (first.body as { job?: { spec?: unknown } }).job?.spec ?? null : null;
  const last = page.entries.at(-1);
  const more = last !== undefined && page.entries.length === query.limit && last.seq < page.head;
  return {
    format: AUDIT_FORMAT,
    job: auditJob(stream, summary.name),
    spec,
    fold: { version: FOLD_VERSION, gates: deps.config.gates },
    entries: page.entries.map(auditEntry),
    head: page.head,
    ...(more ? { nextAfter: last.seq } : {}),
  };
});
