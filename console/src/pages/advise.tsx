import { useEffect, useState } from 'preact/hooks';
import { adviseOver } from '../../../shared/advise/walk.ts';
import { adviceView, harmText, podHoursText, type AdviceView, type FamilyView, type ProposalView } from '../../../shared/advise/view.ts';
import { parseSelection, type SelectionText } from '../../../shared/fleet/selection.ts';
import { postJson } from '../api.ts';
import { plural, utc } from '../format.ts';
import { ErrorNote, Text } from '../parts/common.tsx';
import { adviseHref, objectHref } from '../route.ts';
import type { AdvicePort } from '../../../shared/ports.ts';

// Advice (docs/advise.md): per family of finished Jobs, the policy changes that would have saved
// the most pod-hours, each checked Job by Job by the exact what-if; the patch to apply first, then
// every proposal, harmless ones first, a harmful one with its harmed Jobs listed and linked. The
// page runs the same two passes as `jobfold advise` (shared/advise/walk.ts) over the API; the
// selection lives in the URL.

const FIELDS = [
  ['cluster', 'Cluster', 'prod-eu-1'],
  ['namespace', 'Namespace', 'batch'],
  ['selector', 'Label selector', 'app=etl,!canary'],
  ['namePrefix', 'Name prefix', 'nightly-'],
  ['owner', 'Owner', 'CronJob/nightly-etl'],
  ['since', 'Since', '7d, 12h or a time'],
] as const;
type Field = (typeof FIELDS)[number][0];

const port = (signal: AbortSignal): AdvicePort => ({
  evidencePage: (body) => postJson('/v1/advise/evidence', body, signal),
  checkPage: (body) => postJson('/v1/advise/check', body, signal),
});

/** `7d` / `12h` / `30m` before now, or the time given. */
function sinceTime(text: string, now: number): string {
  const match = /^(\d+)([dhm])$/.exec(text);
  if (!match) return new Date(Date.parse(text)).toISOString();
  const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[match[2] as 'd' | 'h' | 'm'];
  return new Date(now - Number(match[1]) * unit).toISOString();
}

export function AdvisePage({ query }: { query: URLSearchParams }) {
  const given = Object.fromEntries(FIELDS.map(([f]) => [f, query.get(f) ?? undefined])) as Record<Field, string | undefined>;
  const key = JSON.stringify(given);
  const [state, setState] = useState<{ view?: AdviceView; error?: string; progress?: string }>({});
  useEffect(() => {
    const abort = new AbortController();
    setState({ progress: 'Reading the fleet…' });
    (async () => {
      const { since, ...rest } = given;
      const text: SelectionText = Object.fromEntries(Object.entries({ ...rest, ...(since ? { since: sinceTime(since, Date.now()) } : {}) }).filter(([, v]) => v)) as SelectionText;
      const selection = parseSelection(text);
      const progress = (pass: string, jobs: number) => setState({ progress: `${pass === 'mining' ? 'Mining' : 'Checking'}: ${plural(jobs, 'Job')} read…` });
      const advice = await adviseOver(port(abort.signal), text, { progress });
      setState({ view: adviceView(advice, selection) });
    })().catch((error: Error) => {
      if (!abort.signal.aborted) setState({ error: error.message });
    });
    return () => abort.abort();
  }, [key]);
  return (
    <main aria-labelledby="advise-title">
      <h1 id="advise-title">Advice</h1>
      <p class="muted">
        From the fleet's finished Jobs, the failure and success policies that would have saved the most pod-hours, each checked
        Job by Job by the exact what-if. A proposal that harms any Job is marked and never ranked above a harmless one.
      </p>
      <Selection key={key} given={given} />
      <ErrorNote error={state.error} />
      {state.progress && <p class="muted" role="status">{state.progress}</p>}
      {state.view && <Advice view={state.view} />}
    </main>
  );
}

/** The selection as a form: its fields start at the URL's and are the user's until submitted. */
function Selection({ given }: { given: Record<Field, string | undefined> }) {
  return (
    <form
      class="filters"
      aria-label="Which Jobs"
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget as HTMLFormElement);
        location.hash = adviseHref(Object.fromEntries(FIELDS.map(([f]) => [f, String(data.get(f) ?? '').trim() || undefined])));
      }}
    >
      {FIELDS.map(([name, label, placeholder]) => (
        <label class="filter">
          <span>{label}</span>
          <input name={name} defaultValue={given[name] ?? ''} placeholder={placeholder} />
        </label>
      ))}
      <button type="submit">Advise</button>
    </form>
  );
}

function Advice({ view }: { view: AdviceView }) {
  const withPatch = view.advice.filter((f) => f.recommended).length;
  const quiet = view.advice.filter((f) => f.proposals.length === 0);
  return (
    <>
      <p class="summary">
        {plural(view.jobs, 'finished Job')} in {plural(view.families, 'family', 'families')}; {plural(view.proposals, 'proposal')} checked by
        exact what-if; {plural(withPatch, 'family has', 'families have')} a patch to apply.
      </p>
      {view.advice.filter((f) => f.proposals.length > 0).map((f) => <Family family={f} />)}
      {quiet.length > 0 && (
        <p class="muted">
          Nothing to propose for {plural(quiet.length, 'family', 'families')}: {quiet.map((f) => `${f.family.namespace}/${f.family.key}`).join(', ')}.
        </p>
      )}
    </>
  );
}

function Family({ family: f }: { family: FamilyView }) {
  const id = `family-${f.family.namespace}-${f.family.key}`.replace(/[^A-Za-z0-9-]/g, '-');
  const best = f.recommended;
  return (
    <section class="panel family" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>
        <Text value={f.family.key} /> <span class="muted">in <Text value={f.family.namespace} /> · {f.family.clusters.join(', ')}</span>
      </h2>
      <p>
        {plural(f.jobs.finished, 'finished Job')}: {f.jobs.succeeded} succeeded, {f.jobs.failed} failed · {podHoursText(f.jobs.podHours)} pod-hours
      </p>
      {best ? (
        <div class="apply">
          <h3>Apply: <Text value={best.title} /></h3>
          <p>saves {podHoursText(best.podHoursSaved)} pod-hours on the record and harms no Job</p>
          <pre class="yaml"><Text value={best.yaml} multiline /></pre>
          {best.apply && <p class="command"><code><Text value={best.apply} /></code></p>}
        </div>
      ) : (
        <p class="verdict">No patch: {f.verdict}.</p>
      )}
      <h3>Proposals, harmless first, by pod-hours saved</h3>
      <ol class="proposals">
        {f.proposals.map((p) => <Proposal proposal={p} />)}
      </ol>
    </section>
  );
}

function Proposal({ proposal: p }: { proposal: ProposalView }) {
  const c = p.check;
  const mark = p.harmless ? 'harmless' : c.harm.length > 0 ? `harms ${plural(c.harm.length, 'Job')}` : 'unproven';
  return (
    <li class={`proposal ${p.harmless ? 'harmless' : 'harmful'}`}>
      <h4>
        <span class={`badge ${p.harmless ? 'state-Succeeded' : 'state-Failed'}`}>{mark}</span> <Text value={p.title} />
      </h4>
      <ul class="mined">{p.mined.map((m) => <li><Text value={m} /></li>)}</ul>
      <p class="checked">
        {c.replayed} of {plural(c.jobs, 'Job')} replayed exactly: {c.decidedEarlier} decided earlier, {c.decidedLater} later, {c.outcomeChanged} outcome(s)
        changed, {c.unchanged} unchanged; saves {podHoursText(p.podHoursSaved)} pod-hours
      </p>
      {c.harm.length > 0 && (
        <table class="harm">
          <caption>Harmed Jobs, with where the replay diverges</caption>
          <thead><tr><th>Job</th><th>Harm</th><th>Recorded</th><th>What-if</th><th>Diverges</th></tr></thead>
          <tbody>
            {c.harm.map((h) => (
              <tr>
                <td><a href={objectHref('Job', h.job.cluster, h.job.namespace, h.job.name, h.job.uid)}><Text value={`${h.job.cluster}/${h.job.namespace}/${h.job.name}`} /></a></td>
                <td>{harmText(h)}</td>
                <td><Text value={h.recorded} /></td>
                <td><Text value={h.whatIf} /></td>
                <td>event #{h.divergence.atEvent} at {utc(h.divergence.at)}: recorded decided <Text value={h.divergence.recorded} />; what-if decided <Text value={h.divergence.whatIf} /></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {c.examples.length > 0 && (
        <ul class="examples">
          {c.examples.map((e) => (
            <li>
              <a href={objectHref('Job', e.job.cluster, e.job.namespace, e.job.name, e.job.uid)}><Text value={`${e.job.cluster}/${e.job.namespace}/${e.job.name}`} /></a>:{' '}
              <Text value={e.recorded} /> → <Text value={e.whatIf} /> ({e.podSecondsSaved} pod-s)
            </li>
          ))}
        </ul>
      )}
      {c.notReplayable.length > 0 && <p class="muted">Excluded: {plural(c.notReplayable.length, 'Job')} whose record does not replay exactly under its own spec.</p>}
      {c.refused.length > 0 && <p class="muted">Excluded: {plural(c.refused.length, 'Job')} the patched spec is invalid for.</p>}
      <details>
        <summary>Patch and the what-if that reproduces these figures</summary>
        <pre class="yaml"><Text value={p.yaml} multiline /></pre>
        <p class="command"><code><Text value={p.reproduce} /></code></p>
      </details>
    </li>
  );
}
