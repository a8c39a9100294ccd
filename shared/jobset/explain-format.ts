import { printable } from '../k8s/printable.ts';
import type { ExplainedJobSetDecision, JobSetExplanation } from './explain.ts';

const COMMAND_ISSUED = new Set(['CreateJobIssued', 'DeleteJobIssued', 'SuspendJobIssued', 'ResumeJobIssued']);

/**
 * The explanation as text, one fact per line: Outcome, Summary, Restarts, Waiting (replicated
 * jobs not all created, and why), Why (one sentence per condition), Decisions (one per decision;
 * commands of one kind issued together share a line), Rejected (admission errors). `indent`
 * prefixes every line.
 */
export function formatJobSetExplanation(explanation: JobSetExplanation, indent = ''): string {
  const lines = [
    `Outcome:   ${explanation.outcome}`,
    `Summary:   ${explanation.summary}`,
    `Restarts:  ${explanation.restarts} (${explanation.restartsCountTowardsMax} counted towards maxRestarts)`,
  ];
  if (explanation.waiting.length > 0) {
    lines.push('Waiting:');
    for (const wait of explanation.waiting) lines.push(`  ${wait.sentence}`);
  }
  if (explanation.conditions.length > 0) {
    lines.push("Why (event #N = position in the JobSet's log):");
    for (const condition of explanation.conditions) lines.push(`  ${condition.sentence}`);
  }
  if (explanation.events.length > 0) {
    lines.push('Decisions:');
    for (const group of groupDecisions(explanation.events)) lines.push(`  ${group}`);
  }
  if (explanation.rejection.length > 0) {
    lines.push('Rejected:');
    for (const message of explanation.rejection) lines.push(`  ${message}`);
  }
  // Names and messages come from clusters: escape control characters in every line.
  return lines.map((line) => indent + printable(line)).join('\n');
}

/** `#16-#19 2026-01-01T00:02:00Z  DeleteJob ×4: a, b, c, d`; other decisions one per line. */
function groupDecisions(events: readonly ExplainedJobSetDecision[]): string[] {
  const groups: ExplainedJobSetDecision[][] = [];
  for (const event of events) {
    const last = groups.at(-1);
    const first = last?.[0];
    const joins = first !== undefined && COMMAND_ISSUED.has(event.type) && first.type === event.type && first.at === event.at;
    if (last !== undefined && joins) last.push(event);
    else groups.push([event]);
  }
  return groups.map((group) => {
    const first = group[0] as ExplainedJobSetDecision;
    const last = group.at(-1) as ExplainedJobSetDecision;
    if (group.length === 1) return `#${first.seq} ${first.at}  ${first.sentence}`;
    return `#${first.seq}-#${last.seq} ${first.at}  ${commandGroup(group)}`;
  });
}

function commandGroup(group: readonly ExplainedJobSetDecision[]): string {
  const names: string[] = [];
  const attempts = new Set<number>();
  for (const { decision } of group) {
    if ('name' in decision) names.push(decision.name);
    if (decision.type === 'CreateJobIssued') attempts.add(decision.restartAttempt);
  }
  const verb = (group[0] as ExplainedJobSetDecision).type.replace(/Issued$/, '');
  const attempt = attempts.size === 1 ? ` (restart attempt ${[...attempts][0]})` : '';
  return `${verb} ×${group.length}${attempt}: ${names.join(', ')}`;
}
