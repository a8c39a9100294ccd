import type { FleetTally } from '../../shared/whatif/fleet.ts';
import { hours } from './format-whatif.ts';

/** The fleet what-if for a person: the counts, then one line per changed Job. */
export function formatFleet(tally: FleetTally, skippedBecause: string | undefined): string {
  const lines = [
    `Jobs read:            ${tally.jobs}${tally.skipped > 0 ? ` (${tally.skipped} skipped: the patched spec is invalid for them${skippedBecause ? `, e.g. ${skippedBecause}` : ''})` : ''}`,
    ...(tally.notReplayable > 0 ? [`Not replayable:       ${tally.notReplayable} (the record does not replay under its own spec: in no figure below)`] : []),
    `Outcome changes:      ${tally.outcomeChanged} (exact)`,
    `Outcome unknown:      ${tally.outcomeUnknown} (diverge before an outcome)`,
    `Decided earlier:      ${tally.decidedEarlier}`,
    `Decided later:        ${tally.decidedLater}`,
    `Pod-hours ${tally.podSecondsSaved >= 0 ? 'saved: ' : 'spent: '}     ${hours(Math.abs(tally.podSecondsSaved))} (${Math.abs(tally.podSecondsSaved)} pod-seconds)`,
  ];
  if (tally.changed.length > 0) {
    lines.push('', 'Changed Jobs (diverging at event N):');
    for (const job of tally.changed) {
      lines.push(`  ${job.cluster}/${job.namespace}/${job.name}  @${job.divergesAtEvent} ${job.at}  ${job.recorded} → ${job.whatIf}  (${job.podSecondsSaved} pod-s saved)`);
    }
  }
  return lines.join('\n');
}
