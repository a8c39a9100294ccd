import { describe, expect, it } from 'vitest';
import { AUDIT_FORMAT, chainSummary, type AuditEntry, type AuditExport } from '../../../shared/audit/audit-format.ts';
import { FOLD_VERSION } from '../../../shared/audit/fold-version.ts';
import { verifyAudit } from '../../../shared/audit/verify.ts';
import { chainEntries, GENESIS_HASH } from '../../../shared/log/hash-chain.ts';
import { auditLog } from './audit-log.ts';

// Given a chained Job log, when an entry is changed, removed, inserted or moved, or a decision
// no longer follows from the log, then verify names it; an untouched log has no finding.

const exportOf = (entries: AuditEntry[]): AuditExport => ({
  format: AUDIT_FORMAT,
  job: { kind: 'Job', clusterId: 'test-cluster', namespace: 'default', name: 'myjob', uid: 'job-uid' },
  spec: {},
  fold: { version: FOLD_VERSION, gates: {} },
  entries,
  chain: chainSummary(entries),
});
const findings = (entries: AuditEntry[]) => verifyAudit(exportOf(entries)).findings;
const kinds = (entries: AuditEntry[]) => findings(entries).map((f) => `${f.kind}@${f.seq}`);

describe('verify', () => {
  const log = auditLog();
  const podEntry = log.findIndex((e) => e.type === 'PodObserved' && JSON.stringify(e.body).includes('"Failed"'));

  it('finds nothing in the log as recorded', () => {
    expect(log.some((e) => 'read' in (e.body as object))).toBe(true);
    expect(findings(log)).toEqual([]);
  });

  it('names an entry whose content was changed under its hash', () => {
    const changed = structuredClone(log);
    (changed[podEntry]!.body as { pod: { status: { phase: string } } }).pod.status.phase = 'Succeeded';
    expect(kinds(changed)).toContain(`changed@${log[podEntry]!.seq}`);
  });

  it('names a removed entry by its missing position', () => {
    const removed = log.filter((_, i) => i !== podEntry);
    expect(kinds(removed)[0]).toBe(`removed@${log[podEntry]!.seq}`);
  });

  it('names an inserted entry, and the entries renumbered after it as moved', () => {
    const forged = { ...structuredClone(log[podEntry]!), eventId: 'forged', hash: 'f'.repeat(64) };
    const at = podEntry;
    const inserted = [...log.slice(0, at), { ...forged, seq: log[at]!.seq }, ...log.slice(at).map((e) => ({ ...e, seq: e.seq + 1 }))];
    const found = kinds(inserted);
    expect(found[0]).toBe(`inserted@${log[at]!.seq}`);
    expect(found).toContain(`reordered@${log[at]!.seq + 1}`);
  });

  it('names two swapped entries as moved, each with the position it was recorded at', () => {
    const a = podEntry - 1;
    const swapped = structuredClone(log);
    const [first, second] = [swapped[a]!, swapped[a + 1]!];
    swapped[a] = { ...second, seq: first.seq };
    swapped[a + 1] = { ...first, seq: second.seq };
    const found = findings(swapped).filter((f) => f.kind === 'reordered');
    expect(found).toEqual([
      { kind: 'reordered', seq: first.seq, eventId: second.eventId, originalSeq: second.seq },
      { kind: 'reordered', seq: second.seq, eventId: first.eventId, originalSeq: first.seq },
    ]);
  });

  it('names a recorded decision the fold does not reproduce, re-chained so the chain holds', () => {
    const condition = log.findIndex((e) => e.type === 'JobConditionChanged');
    const forged = structuredClone(log).map(({ hash: _hash, ...e }) => e);
    (forged[condition]!.body as { condition: { reason: string } }).condition.reason = 'Forged';
    const rechained = chainEntries(GENESIS_HASH, forged);
    const found = findings(rechained).filter((f) => f.kind === 'notReproduced' || f.kind === 'foldVersionChanged');
    expect(found).toEqual([expect.objectContaining({ kind: 'notReproduced', seq: log[condition]!.seq })]);
  });

  it('tells a decision an older fold took apart from tampering', () => {
    const older = auditLog('fold-2020-01-01.1');
    const condition = older.findIndex((e) => e.type === 'JobConditionChanged');
    const changed = older.map(({ hash: _hash, ...e }) => structuredClone(e));
    (changed[condition]!.body as { condition: { reason: string } }).condition.reason = 'OldReason';
    const found = findings(chainEntries(GENESIS_HASH, changed));
    expect(found).toEqual([expect.objectContaining({ kind: 'foldVersionChanged', foldVersion: 'fold-2020-01-01.1', currentVersion: FOLD_VERSION })]);
  });
});
