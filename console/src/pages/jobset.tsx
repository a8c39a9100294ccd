import { useState } from 'preact/hooks';
import { getJson, objectPath } from '../api.ts';
import type { JobSetCommand, JobSetDecision, JobSetExplanation, JobSetView } from '../../../functions/query/api-types.ts';
import { age, utc } from '../format.ts';
import { Describe, EntryLink, ErrorNote, Section, StateBadge, Text } from '../parts/common.tsx';
import { EarlierCommands } from '../parts/earlier-commands.tsx';
import { HistoryPanel } from '../parts/evidence.tsx';
import { usePolled } from '../poll.ts';
import { fleetHref, objectHref } from '../route.ts';

// One JobSet: its status, child Jobs (linked to their pages), restarts, and every decision with
// the rule that made it, linked to the evidence in the history.

export function JobSetPage({ cluster, namespace, name, query }: { cluster: string; namespace: string; name: string; query: URLSearchParams }) {
  const uid = query.get('uid') ?? undefined;
  const base = objectPath('JobSet', cluster, namespace, name);
  const [entry, setEntry] = useState<number | undefined>(undefined);
  const data = usePolled(async (signal) => {
    const [view, explanation] = await Promise.all([
      getJson<JobSetView>(base, { uid }, signal),
      getJson<JobSetExplanation>(`${base}/explain`, { uid }, signal),
    ]);
    return { view, explanation };
  }, `${base}|${uid}`);
  const open = (seq: number) => {
    setEntry(seq);
    requestAnimationFrame(() => document.getElementById('evidence')?.focus());
  };
  const crumbs = (
    <nav class="crumbs" aria-label="Breadcrumb">
      <a href={fleetHref({ kind: 'JobSet' })}>Fleet</a> › <a href={fleetHref({ cluster })}><Text value={cluster} /></a> ›{' '}
      <a href={fleetHref({ cluster, namespace })}><Text value={namespace} /></a> › <Text value={name} />
    </nav>
  );
  if (!data.data) {
    return <main>{crumbs}<ErrorNote error={data.error} />{data.loading && <p class="muted">Loading the JobSet…</p>}</main>;
  }
  const { view, explanation } = data.data;
  const maxRestarts = view.spec?.failurePolicy?.maxRestarts;
  const deciding = explanation.events.filter((e) => e.type !== 'CreateJobIssued' && !e.type.endsWith('JobIssued'));
  return (
    <main aria-labelledby="jobset-title">
      {crumbs}
      <header class="object-header">
        <h1 id="jobset-title">JobSet <Text value={`${view.jobSet.namespace}/${view.jobSet.name}`} /></h1>
        <StateBadge state={explanation.outcome} />
        {view.deleted && <span class="badge">deleted in the cluster</span>}
        <span class="muted live">head #{view.log.head} · updated {data.updatedAt ? age(data.updatedAt.toISOString()) : '–'} ago</span>
      </header>
      <ErrorNote error={data.error} />
      <p class="summary"><Text value={explanation.summary} /></p>

      <Section id="describe" title="Status">
        <Describe rows={[
          ['Cluster', <Text value={view.jobSet.clusterId} />],
          ['UID', <Text value={view.jobSet.uid} />],
          ['Restarts', `${view.status.restarts}${maxRestarts !== undefined ? ` of maxRestarts ${maxRestarts}` : ''} (${view.status.restartsCountTowardsMax} count towards the max)`],
          ['Terminal State', view.status.terminalState || '<none>'],
          ['Success Policy', view.spec ? `${view.spec.successPolicy.operator} of ${view.spec.successPolicy.targetReplicatedJobs.join(', ') || 'every replicated Job'}` : '<unknown>'],
          ['Failure Policy', view.spec?.failurePolicy ? `${view.spec.failurePolicy.restartStrategy}, ${view.spec.failurePolicy.rules.length} rule(s)` : '<none>'],
        ]} />
        <h3>Replicated Jobs</h3>
        <table>
          <thead><tr><th scope="col">Name</th><th scope="col">Active</th><th scope="col">Ready</th><th scope="col">Succeeded</th><th scope="col">Failed</th><th scope="col">Suspended</th></tr></thead>
          <tbody>
            {view.status.replicatedJobsStatus.map((r) => (
              <tr><td><Text value={r.name} /></td><td>{r.active}</td><td>{r.ready}</td><td>{r.succeeded}</td><td>{r.failed}</td><td>{r.suspended}</td></tr>
            ))}
          </tbody>
        </table>
        {explanation.waiting.length > 0 && (
          <>
            <h3>Not created yet</h3>
            <ul class="waiting">
              {explanation.waiting.map((w) => <li><Text value={w.sentence} /></li>)}
            </ul>
          </>
        )}
        <h3>Conditions</h3>
        <table>
          <thead><tr><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Reason</th><th scope="col">Message</th><th scope="col">Last Transition</th></tr></thead>
          <tbody>
            {view.status.conditions.map((c) => (
              <tr><td>{c.type}</td><td>{c.status}</td><td><Text value={c.reason} /></td><td><Text value={c.message} /></td><td>{utc(c.lastTransitionTime)}</td></tr>
            ))}
          </tbody>
        </table>
      </Section>

      <Section id="children" title="Child Jobs">
        {view.childJobs.length === 0 ? <p class="muted">No child Job observed.</p> : (
          <table>
            <thead><tr><th scope="col">Job</th><th scope="col">Replicated Job</th><th scope="col">Index</th><th scope="col">Restart attempt</th><th scope="col">State</th></tr></thead>
            <tbody>
              {view.childJobs.map((c) => (
                <tr>
                  <td><a href={objectHref('Job', view.jobSet.clusterId, view.jobSet.namespace, c.name)}><Text value={c.name} /></a></td>
                  <td><Text value={c.replicatedJob ?? ''} /></td>
                  <td>{c.jobIndex ?? ''}</td>
                  <td>{c.restartAttempt ?? ''}</td>
                  <td>{c.terminating ? 'terminating' : c.suspend ? 'suspended' : 'current'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>

      <Section id="why" title="Why: decisions and the rules that made them">
        {deciding.length === 0 ? <p class="muted">No decision yet.</p> : (
          <ol class="why-conditions">
            {deciding.map((d) => (
              <li>
                <p class="sentence"><EntryLink seq={d.seq} onOpen={open}>#{d.seq}</EntryLink> <strong>{d.type}</strong> <Text value={d.sentence} /></p>
                <p class="links">
                  <FailureCause decision={d.decision} jobSet={view.jobSet} onOpen={open} />
                  {d.tippedBy !== undefined && <>Tipped by <EntryLink seq={d.tippedBy} onOpen={open} />.</>}
                </p>
              </li>
            ))}
          </ol>
        )}
      </Section>

      <Section id="commands" title="Commands">
        {view.commands.length === 0
          ? <p class="muted">No command issued{view.commandsFrom > 1 ? ` at #${view.commandsFrom} or later` : ''}.</p>
          : <JobSetCommands commands={view.commands} onOpen={open} />}
        {view.commandsFrom > 1 && (
          <EarlierCommands<JobSetCommand> base={base} uid={uid} before={view.commandsFrom} render={(items) => <JobSetCommands commands={items} onOpen={open} />} />
        )}
      </Section>

      <HistoryPanel base={base} uid={uid} head={view.log.head} selected={entry} onOpen={open} />
    </main>
  );
}

/** The failure policy rule a restart or failure applied, and the child Job whose failure it acted on. */
function FailureCause({ decision, jobSet, onOpen }: { decision: JobSetDecision['decision']; jobSet: JobSetView['jobSet']; onOpen: (seq: number) => void }) {
  if (decision.type !== 'JobSetRestarted' && decision.type !== 'JobSetFailed') return null;
  const { rule, failedJob } = decision;
  const action = decision.type === 'JobSetRestarted' ? ` (${decision.action})` : '';
  return (
    <>
      {rule === null
        ? <>No failure policy rule matched: the default action applied{action}. </>
        : <>Rule <strong>#{rule.index} <Text value={rule.name} /></strong> ({rule.action}) decided. </>}
      Failed child Job{' '}
      <a href={objectHref('Job', jobSet.clusterId, jobSet.namespace, failedJob.name)}><Text value={failedJob.name} /></a>{' '}
      (<Text value={failedJob.reason} />), observed at <EntryLink seq={failedJob.observedAt} onOpen={onOpen} />.{' '}
    </>
  );
}

function JobSetCommands({ commands, onOpen }: { commands: JobSetCommand[]; onOpen: (seq: number) => void }) {
  return (
    <table class="commands">
      <thead><tr><th scope="col">Entry</th><th scope="col">Time</th><th scope="col">Command</th><th scope="col">Child Job</th></tr></thead>
      <tbody>
        {commands.map((c) => (
          <tr><td><EntryLink seq={c.seq} onOpen={onOpen}>#{c.seq}</EntryLink></td><td>{utc(c.at)}</td><td>{c.type}</td><td><Text value={c.name} /></td></tr>
        ))}
      </tbody>
    </table>
  );
}
