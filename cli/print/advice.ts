import type { HarmedJob } from '../../shared/advise/check.ts';
import { harmText, jobName, podHoursText, type AdviceView, type FamilyView, type ProposalView } from '../../shared/advise/view.ts';
import { field, line, lines, section, table, type Block } from './text.ts';

// `jobfold advise` for a person, as a document for the one text printer: a summary line, then
// per family with something to propose, as `kubectl describe` prints several objects, its Jobs,
// the patch to apply first (YAML, and the kubectl command for a CronJob) or why there is none,
// and every proposal checked, harmless ones first, each with what it was mined from, what the
// exact what-if found — the harm Job by Job, with the divergence — and the command that
// reproduces its figures.

export function adviceBlocks(view: AdviceView): Block[] {
  const withPatch = view.advice.filter((f) => f.recommended).length;
  const quiet = view.advice.filter((f) => f.proposals.length === 0);
  const blocks: Block[] = [
    line(`${count(view.jobs, 'finished Job')} in ${count(view.families, 'family', 'families')}; ${count(view.proposals, 'proposal')} checked by exact what-if; ${count(withPatch, 'family has', 'families have')} a patch to apply.`),
  ];
  for (const family of view.advice.filter((f) => f.proposals.length > 0)) blocks.push(line(''), ...familyBlocks(family));
  if (quiet.length > 0) {
    blocks.push(
      line(''),
      line(`Nothing to propose for ${count(quiet.length, 'family', 'families')} (no failure, disruption, long run or leader pattern worth a policy): ${quiet.map((f) => `${f.family.namespace}/${f.family.key}`).join(', ')}`),
    );
  }
  return blocks;
}

function familyBlocks(f: FamilyView): Block[] {
  const j = f.jobs;
  const best = f.recommended;
  return [
    field('Family', f.family.key),
    field('Namespace', f.family.namespace),
    field(f.family.clusters.length === 1 ? 'Cluster' : 'Clusters', f.family.clusters.join(', ')),
    field('Jobs', `${j.finished} finished: ${j.succeeded} succeeded, ${j.failed} failed; ${podHoursText(j.podHours)} pod-hours`),
    ...(best
      ? [
          field('Apply', best.title),
          field('Saves', `${podHoursText(best.podHoursSaved)} pod-hours on the record; harms no Job`),
          section('Patch', yamlLines(best.yaml)),
          ...(best.apply ? [section("To the CronJob's Job template", [line(best.apply)])] : []),
        ]
      : [field('Apply', '<none>'), field('Why', f.verdict ?? 'nothing is proposed')]),
    section('Proposals (harmless first, by pod-hours saved)', f.proposals.flatMap((p, i) => proposalBlocks(p, i + 1))),
  ];
}

function proposalBlocks(p: ProposalView, n: number): Block[] {
  const c = p.check;
  const mark = p.harmless ? '' : c.harm.length > 0 ? `HARMFUL (${count(c.harm.length, 'Job')}) ` : 'UNPROVEN ';
  const body: Block[] = [
    section('Mined', lines(p.mined)),
    field('Checked', `${c.replayed} of ${count(c.jobs, 'Job')} replayed exactly: ${c.decidedEarlier} decided earlier, ${c.decidedLater} later, ${c.outcomeChanged} outcome(s) changed, ${c.unchanged} unchanged`),
    field('Saves', `${podHoursText(p.podHoursSaved)} pod-hours${c.harm.length === 0 ? '; no Job harmed' : ''}`),
  ];
  if (c.harm.length > 0) body.push(table('Harmed Jobs', ['Job', 'Harm', 'Recorded', 'What-if', 'Diverges'], c.harm.map(harmRow)));
  if (c.examples.length > 0) {
    body.push(section('Decided Earlier, e.g.', lines(c.examples.map((e) => `${jobName(e.job)}: ${e.recorded} → ${e.whatIf} (${e.podSecondsSaved} pod-s)`))));
  }
  if (c.notReplayable.length > 0) {
    const shown = c.notReplayable.slice(0, 5).map((x) => `${jobName(x.job)} (event ${x.divergence.atEvent})`);
    body.push(field('Excluded', `${count(c.notReplayable.length, 'Job')} whose record does not replay exactly under its own spec: ${shown.join(', ')}${c.notReplayable.length > 5 ? ', …' : ''}`));
  }
  if (c.refused.length > 0) {
    body.push(field('Refused', `${count(c.refused.length, 'Job')} the patched spec is invalid for, e.g. ${jobName(c.refused[0]!.job)}: ${c.refused[0]!.reason}`));
  }
  body.push(section('Patch', yamlLines(p.yaml)), field('Reproduce', p.reproduce));
  return [section(`${n}. ${mark}${p.title}`, body)];
}

function harmRow(h: HarmedJob): string[] {
  const d = h.divergence;
  return [jobName(h.job), harmText(h), h.recorded, h.whatIf, `event ${d.atEvent} (${d.at}): recorded decided ${d.recorded}; what-if decided ${d.whatIf}`];
}

const yamlLines = (yaml: string): Block[] => lines(yaml.trimEnd().split('\n'));

const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
