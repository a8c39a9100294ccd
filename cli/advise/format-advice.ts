import type { AdviceView, FamilyView, ProposalView } from '../../shared/advise/view.ts';
import { harmText, jobName, podHoursText } from '../../shared/advise/view.ts';
import type { HarmedJob } from '../../shared/advise/check.ts';
import { printableLines } from '../../shared/k8s/printable.ts';

// `jobfold advise` for a person: per family, the patch to apply first (YAML, and the kubectl
// command for a CronJob), then every proposal checked, harmless ones first, each with what it was
// mined from, what the exact what-if found — the harm Job by Job, with the divergence — and
// the command that reproduces its figures.

export function formatAdvice(view: AdviceView): string {
  const withPatch = view.advice.filter((f) => f.recommended);
  const withProposals = view.advice.filter((f) => f.proposals.length > 0);
  const quiet = view.advice.filter((f) => f.proposals.length === 0);
  const lines = [
    `${view.jobs} finished Job(s) in ${view.families} famil${view.families === 1 ? 'y' : 'ies'}; ${view.proposals} proposal(s) checked by exact what-if; ${withPatch.length} famil${withPatch.length === 1 ? 'y has' : 'ies have'} a patch to apply.`,
  ];
  for (const family of withProposals) lines.push('', ...familyLines(family));
  if (quiet.length > 0) {
    lines.push('', `Nothing to propose for ${quiet.length} famil${quiet.length === 1 ? 'y' : 'ies'} (no failure, disruption, long run or leader pattern worth a policy): ${quiet.map((f) => `${f.family.namespace}/${f.family.key}`).join(', ')}`);
  }
  return `${printableLines(lines.join('\n'))}\n`;
}

function familyLines(f: FamilyView): string[] {
  const j = f.jobs;
  const lines = [
    `Family ${f.family.key} in namespace ${f.family.namespace} (cluster${f.family.clusters.length === 1 ? '' : 's'} ${f.family.clusters.join(', ')})`,
    `  ${j.finished} finished Job(s): ${j.succeeded} succeeded, ${j.failed} failed; ${podHoursText(j.podHours)} pod-hours`,
  ];
  const best = f.recommended;
  if (best) {
    lines.push(`  Apply: ${best.title}`);
    lines.push(`    saves ${podHoursText(best.podHoursSaved)} pod-hours on the record and harms no Job; the spec fragment:`);
    lines.push(...best.yaml.trimEnd().split('\n').map((l) => `      ${l}`));
    if (best.apply) lines.push(`    to the CronJob's Job template: ${best.apply}`);
  } else {
    lines.push(`  No patch: ${f.verdict ?? 'nothing is proposed'}.`);
  }
  lines.push('  Proposals, harmless first, by pod-hours saved:');
  f.proposals.forEach((p, i) => lines.push(...proposalLines(p, i + 1)));
  return lines;
}

function proposalLines(p: ProposalView, n: number): string[] {
  const c = p.check;
  const mark = p.harmless ? '' : c.harm.length > 0 ? `HARMFUL (${c.harm.length} Job${c.harm.length === 1 ? '' : 's'}) ` : 'UNPROVEN ';
  const lines = [`  ${n}. ${mark}${p.title}`];
  p.mined.forEach((m, i) => lines.push(`     ${i === 0 ? 'mined:  ' : '        '} ${m}`));
  lines.push(
    `     checked: ${c.replayed} of ${c.jobs} Job(s) replayed exactly: ${c.decidedEarlier} decided earlier, ${c.decidedLater} later, ${c.outcomeChanged} outcome(s) changed, ${c.unchanged} unchanged; saves ${podHoursText(p.podHoursSaved)} pod-hours${c.harm.length === 0 ? '; no Job harmed' : ''}`,
  );
  for (const h of c.harm) lines.push(...harmLines(h));
  for (const e of c.examples) lines.push(`              e.g. ${jobName(e.job)}: ${e.recorded} → ${e.whatIf} (${e.podSecondsSaved} pod-s)`);
  if (c.notReplayable.length > 0) {
    lines.push(`     excluded: ${c.notReplayable.length} Job(s) whose record does not replay exactly under its own spec: ${c.notReplayable.slice(0, 5).map((x) => `${jobName(x.job)} (event ${x.divergence.atEvent})`).join(', ')}${c.notReplayable.length > 5 ? ', …' : ''}`);
  }
  if (c.refused.length > 0) {
    lines.push(`     excluded: ${c.refused.length} Job(s) the patched spec is invalid for, e.g. ${jobName(c.refused[0]!.job)}: ${c.refused[0]!.reason}`);
  }
  lines.push('     patch:', ...p.yaml.trimEnd().split('\n').map((l) => `       ${l}`));
  lines.push(`     reproduce: ${p.reproduce}`);
  return lines;
}

function harmLines(h: HarmedJob): string[] {
  return [
    `     HARM ${jobName(h.job)}: ${harmText(h)}: ${h.recorded} → ${h.whatIf}`,
    `          diverges at event ${h.divergence.atEvent} (${h.divergence.at}): recorded decided ${h.divergence.recorded}; what-if decided ${h.divergence.whatIf}`,
  ];
}
