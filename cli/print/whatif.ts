import { type AnyWhatIfReport, describeDecisions, type FleetTally } from '../../shared/whatif/index.ts';
import { field, indented, line, lines, list, section, type Block } from './text.ts';

// `jobfold whatif` for a person, as documents for the one text printer. A Job's or a JobSet's
// report: the two outcomes side by side (recorded on the left, what-if on the right), then where
// the folds first decided differently and what each decided there, then the kind's own figures.
// The fleet's: its counts, then one line per changed Job.

export function whatIfBlocks(report: AnyWhatIfReport, title: string): Block[] {
  const { recorded, whatIf } = report;
  const exact = whatIf.exact;
  const cell = (value: string | number | null): string => (value === null ? '-' : String(value));
  const rows: string[][] = [
    ['outcome', recorded.outcome, exact ? whatIf.outcome : `${whatIf.outcome} at divergence, then unknown`],
    ['condition', cell(recorded.condition), cell(whatIf.condition)],
    ['reason', cell(recorded.reason), cell(whatIf.reason)],
    ['at event', cell(recorded.atEvent), cell(whatIf.atEvent)],
    ['at', cell(recorded.at), cell(whatIf.at)],
    report.kind === 'JobSet'
      ? ['restarts', String(report.recorded.restarts), String(report.whatIf.restarts)]
      : ['pods terminated', String(report.recorded.podsTerminated), String(report.whatIf.podsTerminated)],
  ];
  const blocks: Block[] = [
    line(title),
    line(''),
    indented([list(['', 'recorded', exact ? 'what-if (exact)' : 'what-if (unknown past divergence)'], rows)]),
    line(''),
    ...divergenceBlocks(report),
  ];
  if (report.kind === 'JobSet') return blocks;
  blocks.push(line(`Pod-seconds saved: ${report.podSecondsSaved} (${hours(report.podSecondsSaved)} pod-hours)`));
  const mismatch = report.replayMismatch;
  if (mismatch) {
    blocks.push(
      line(`NOT EXACT: the record does not replay under its own spec. At event ${mismatch.atEvent} (${mismatch.at}) the log holds`),
      indented([line(`${describeDecisions('Job', mismatch.recorded)}; the refold decides ${describeDecisions('Job', mismatch.refold)}. Nothing above is evidence.`)]),
    );
  }
  if (report.podsKeptUnknown > 0) blocks.push(line(`The what-if keeps ${report.podsKeptUnknown} pod(s) the record terminated there: how long is unknown.`));
  return blocks;
}

function divergenceBlocks(report: AnyWhatIfReport): Block[] {
  if (report.kind === 'JobSet') {
    const d = report.divergence;
    if (!d) return [line('No divergence: the patched JobSet fold decides what the recorded one did at every reconcile.')];
    return decided(d.atEvent, d.at, describeDecisions('JobSet', d.recorded), describeDecisions('JobSet', d.whatIf));
  }
  const d = report.divergence;
  if (!d) return [line('No divergence: the patched fold decides what the recorded one did at every event.')];
  return decided(d.atEvent, d.at, describeDecisions('Job', d.recorded), describeDecisions('Job', d.whatIf));
}

const decided = (atEvent: number, at: string, recorded: string, whatIf: string): Block[] => [
  line(`Diverges at event ${atEvent} (${at}):`),
  indented(lines([`recorded decided: ${recorded}`, `what-if decided:  ${whatIf}`])),
];

/** The fleet what-if: the counts, then one line per changed Job. */
export function fleetWhatIfBlocks(tally: FleetTally, skippedBecause: string | undefined): Block[] {
  const skipped = tally.skipped > 0 ? ` (${tally.skipped} skipped: the patched spec is invalid for them${skippedBecause ? `, e.g. ${skippedBecause}` : ''})` : '';
  const saved = tally.podSecondsSaved;
  const blocks: Block[] = [
    field('Jobs read', `${tally.jobs}${skipped}`),
    ...(tally.notReplayable > 0 ? [field('Not replayable', `${tally.notReplayable} (the record does not replay under its own spec: in no figure below)`)] : []),
    field('Outcome changes', `${tally.outcomeChanged} (exact)`),
    field('Outcome unknown', `${tally.outcomeUnknown} (diverge before an outcome)`),
    field('Decided earlier', tally.decidedEarlier),
    field('Decided later', tally.decidedLater),
    field(saved >= 0 ? 'Pod-hours saved' : 'Pod-hours spent', `${hours(Math.abs(saved))} (${Math.abs(saved)} pod-seconds)`),
  ];
  if (tally.changed.length === 0) return blocks;
  return [
    ...blocks,
    line(''),
    section(
      'Changed Jobs (diverging at event N)',
      lines(tally.changed.map((job) => `${job.cluster}/${job.namespace}/${job.name}  @${job.divergesAtEvent} ${job.at}  ${job.recorded} → ${job.whatIf}  (${job.podSecondsSaved} pod-s saved)`)),
    ),
  ];
}

export const hours = (seconds: number): string => (seconds / 3600).toFixed(2);
