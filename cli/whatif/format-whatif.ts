import { describeDecisions } from '../../shared/whatif/describe-decision.ts';
import type { OutcomeView, WhatIfReport } from '../../shared/whatif/report.ts';

/** The report side by side, for a person: recorded on the left, what-if on the right. */
export function formatWhatIf(report: WhatIfReport, title: string): string {
  const { recorded, whatIf } = report;
  const lines = sideBySide(title, recorded, whatIf, ['pods terminated', String(recorded.podsTerminated), String(whatIf.podsTerminated)]);
  const divergence = report.divergence;
  if (!divergence) {
    lines.push('No divergence: the patched fold decides what the recorded one did at every event.');
  } else {
    lines.push(`Diverges at event ${divergence.atEvent} (${divergence.at}):`);
    lines.push(`  recorded decided: ${describeDecisions(divergence.recorded)}`);
    lines.push(`  what-if decided:  ${describeDecisions(divergence.whatIf)}`);
  }
  lines.push(`Pod-seconds saved: ${report.podSecondsSaved} (${hours(report.podSecondsSaved)} pod-hours)`);
  const mismatch = report.replayMismatch;
  if (mismatch) {
    lines.push(`NOT EXACT: the record does not replay under its own spec. At event ${mismatch.atEvent} (${mismatch.at}) the log holds`);
    lines.push(`  ${describeDecisions(mismatch.recorded)}; the refold decides ${describeDecisions(mismatch.refold)}. Nothing above is evidence.`);
  }
  if (report.podsKeptUnknown > 0) {
    lines.push(`The what-if keeps ${report.podsKeptUnknown} pod(s) the record terminated there: how long is unknown.`);
  }
  return lines.join('\n');
}

type Side = Pick<OutcomeView, 'outcome' | 'condition' | 'reason' | 'atEvent' | 'at'>;

/** The title and the outcome rows, recorded next to what-if, then one more row of the kind's own. */
export function sideBySide(title: string, recorded: Side, whatIf: Side & { exact: boolean }, extra: [string, string, string]): string[] {
  const rows: [string, string, string][] = [
    ['', 'recorded', whatIf.exact ? 'what-if (exact)' : 'what-if (unknown past divergence)'],
    ['outcome', recorded.outcome, whatIf.exact ? whatIf.outcome : `${whatIf.outcome} at divergence, then unknown`],
    ['condition', text(recorded.condition), text(whatIf.condition)],
    ['reason', text(recorded.reason), text(whatIf.reason)],
    ['at event', text(recorded.atEvent), text(whatIf.atEvent)],
    ['at', text(recorded.at), text(whatIf.at)],
    extra,
  ];
  const width = Math.max(...rows.map(([, left]) => left.length)) + 3;
  return [title, '', ...rows.map(([label, left, right]) => `  ${label.padEnd(16)}${left.padEnd(width)}${right}`), ''];
}

const text = (value: string | number | null): string => (value === null ? '-' : String(value));
export const hours = (seconds: number): string => (seconds / 3600).toFixed(2);

export type { OutcomeView };
