import type { Explanation, TerminatedPod } from '../../shared/job/index.ts';
import type { ExplainedJobSetDecision, JobSetExplanation } from '../../shared/jobset/index.ts';
import { field, line, lines, section, type Block } from './text.ts';

/** A Job's or a JobSet's explanation: what `jobfold explain` prints, and `describe`'s last section. */
export type AnyExplanation = Explanation | JobSetExplanation;

/**
 * The explanation, one fact per line: Outcome, Summary, Why (one sentence per condition),
 * Rejected (validation errors), and each kind's own: a Job's terminated pods (grouped by when and
 * why) and the observations after its end; a JobSet's restarts, the replicated jobs still waiting
 * to be created and why (dependsOn, startup order, an earlier attempt's Jobs), and decisions
 * (commands of one kind issued together share a line).
 */
export function explanationBlocks(explanation: AnyExplanation): Block[] {
  const head = [field('Outcome', explanation.outcome), field('Summary', explanation.summary)];
  const why = explanation.conditions.length === 0
    ? []
    : [section(`Why (event #N = position in the ${explanation.kind}'s log)`, lines(explanation.conditions.map((c) => c.sentence)))];
  const rejected = explanation.rejection.length === 0 ? [] : [section('Rejected', lines(explanation.rejection))];
  switch (explanation.kind) {
    case 'Job': {
      const groups = groupTerminations(explanation.terminatedPods);
      const late = explanation.afterFinish;
      return [
        ...head,
        ...why,
        ...(groups.length === 0 ? [] : [section('Terminated Pods', lines(groups))]),
        ...(late === undefined
          ? []
          : [line(`After the end: ${late.observations} observation(s) arrived after event #${late.finishedAt}, where the Job finished; they are logged and change nothing reported.`)]),
        ...rejected,
      ];
    }
    case 'JobSet': {
      const restarts = `${explanation.restarts} (${explanation.restartsCountTowardsMax} counted towards maxRestarts)`;
      const waiting = explanation.waiting.length === 0 ? [] : [section('Waiting', lines(explanation.waiting.map((wait) => wait.sentence)))];
      const decisions = explanation.events.length === 0 ? [] : [section('Decisions', lines(groupDecisions(explanation.events)))];
      return [...head, field('Restarts', restarts), ...waiting, ...why, ...decisions, ...rejected];
    }
    default: {
      const exhaustive: never = explanation;
      throw new Error(`unknown explanation ${JSON.stringify(exhaustive)}`);
    }
  }
}

/** `2026-01-01T00:05:00Z JobFinishing (SuccessPolicy): mypod-1, mypod-2` per request. */
function groupTerminations(pods: readonly TerminatedPod[]): string[] {
  const groups = new Map<string, string[]>();
  for (const pod of pods) {
    const why = pod.cause === undefined ? 'requested' : `${pod.cause}${pod.reason ? ` (${pod.reason})` : ''}`;
    const key = `${pod.requestedAt} ${why}`;
    const names = groups.get(key) ?? [];
    names.push(pod.name);
    groups.set(key, names);
  }
  return [...groups].map(([key, names]) => `${key}: ${names.join(', ')}`);
}

const COMMAND_ISSUED: ReadonlySet<string> = new Set(['CreateJobIssued', 'DeleteJobIssued', 'SuspendJobIssued', 'ResumeJobIssued']);

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
