import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { getJson, objectPath } from '../api.ts';
import type { HistoryPage, JobCommand, JobExplanation, JobIndexes, JobStatus, JobTimeline, JobView, StatusAt } from '../../../functions/query/api-types.ts';
import { age, utc } from '../format.ts';
import { Describe, ErrorNote, Section, StateBadge, Text } from '../parts/common.tsx';
import { Commands } from '../parts/commands.tsx';
import { EarlierCommands } from '../parts/earlier-commands.tsx';
import { HistoryPanel } from '../parts/evidence.tsx';
import { IndexGrid } from '../parts/index-grid.tsx';
import { ConditionsTimeline } from '../parts/timeline.tsx';
import { Why } from '../parts/why.tsx';
import { usePolled } from '../poll.ts';
import { fleetHref } from '../route.ts';

// One Job: status as `kubectl describe` shows it, the conditions timeline, the index grid, the
// why with its evidence, the commands, and a slider for the status at any point of the log.
// It follows the head while the Job runs; moving the slider pins a point (`at` in the URL).

interface Props {
  cluster: string;
  namespace: string;
  name: string;
  query: URLSearchParams;
}

interface Head {
  view: JobView;
  explanation: JobExplanation;
  timeline: JobTimeline;
}

export function JobPage({ cluster, namespace, name, query }: Props) {
  const uid = query.get('uid') ?? undefined;
  const base = objectPath('Job', cluster, namespace, name);
  const numberIn = (value: string | null) => (value === null ? undefined : Number(value));
  const [at, setAt] = useState<number | undefined>(numberIn(query.get('at')));
  const [entry, setEntry] = useState<number | undefined>(numberIn(query.get('entry')));
  // A link or an edited address to the same Job at another point (a hashchange, the page stays):
  // the point and entry follow it. The page's own changes replace the URL without a hashchange.
  const queryAt = query.get('at');
  const queryEntry = query.get('entry');
  useEffect(() => setAt(numberIn(queryAt)), [queryAt]);
  useEffect(() => setEntry(numberIn(queryEntry)), [queryEntry]);
  useEffect(() => {
    // Keep the point and the opened entry in the URL, for links, without a history step each.
    const params = new URLSearchParams();
    if (uid) params.set('uid', uid);
    if (at !== undefined) params.set('at', String(at));
    if (entry !== undefined) params.set('entry', String(entry));
    const search = params.toString();
    history.replaceState(null, '', `${location.pathname}${location.search}${location.hash.split('?')[0]}${search ? `?${search}` : ''}`);
  }, [at, entry, uid]);

  // Each poll first asks the history for entries past the head it knows (one cheap read); the
  // three views, which fold the whole log, are read again only when the log grew.
  const known = useRef<{ key: string; head: number; data: Head } | undefined>(undefined);
  const headKey = `${base}|${uid}`;
  const head = usePolled<Head>(async (signal) => {
    const cached = known.current?.key === headKey ? known.current : undefined;
    if (cached) {
      const probe = await getJson<HistoryPage>(`${base}/history`, { uid, after: cached.head, limit: 1 }, signal);
      if (probe.head === cached.head) return cached.data;
    }
    const [view, explanation, timeline] = await Promise.all([
      getJson<JobView>(base, { uid }, signal),
      getJson<JobExplanation>(`${base}/explain`, { uid }, signal),
      getJson<JobTimeline>(`${base}/timeline`, { uid }, signal),
    ]);
    known.current = { key: headKey, head: view.log.head, data: { view, explanation, timeline } };
    return known.current.data;
  }, headKey);
  const view = head.data?.view;
  const indexed = view?.spec?.completionMode === 'Indexed';
  const point = usePolled((signal) => getJson<StatusAt>(`${base}/status`, { uid, at }, signal), `${base}|${uid}|at|${at}`, at !== undefined, false);
  const indexes = usePolled(
    (signal) => getJson<JobIndexes>(`${base}/indexes`, { uid, at }, signal),
    `${base}|${uid}|indexes|${at}|${at === undefined ? view?.log.head : ''}`,
    indexed,
    false,
  );
  const open = (seq: number) => {
    setEntry(seq);
    requestAnimationFrame(() => document.getElementById('evidence')?.focus());
  };

  if (!head.data) {
    return (
      <main>
        <Crumbs cluster={cluster} namespace={namespace} name={name} />
        <ErrorNote error={head.error} />
        {head.loading && <p class="muted">Loading the Job…</p>}
      </main>
    );
  }
  const { explanation, timeline } = head.data;
  const v = head.data.view;
  const finished = explanation.outcome !== 'Running' && explanation.outcome !== 'Pending';
  // While the status at a new point loads, show nothing rather than another point's status.
  const shownStatus: JobStatus | undefined = at === undefined ? v.status : point.data?.at.seq === at ? point.data.status : undefined;
  return (
    <main aria-labelledby="job-title">
      <Crumbs cluster={cluster} namespace={namespace} name={name} />
      <header class="object-header">
        <h1 id="job-title">Job <Text value={`${v.job.namespace}/${v.job.name}`} /></h1>
        <StateBadge state={explanation.outcome} />
        {v.deleted && <span class="badge">deleted in the cluster</span>}
        <span class="muted live" aria-live="off">
          {finished ? 'finished' : 'following the log'} · head #{v.log.head} · updated {head.updatedAt ? age(head.updatedAt.toISOString()) : '–'} ago
        </span>
      </header>
      <ErrorNote error={head.error} />
      <Attention view={v} />
      <p class="summary"><Text value={explanation.summary} /></p>

      <Section id="at" title="Status at a point of the history">
        <PointSlider head={v.log.head} at={at} setAt={setAt} point={point.data} error={point.error} />
      </Section>

      <Section id="describe" title={at === undefined ? 'Status' : `Status at #${at}`}>
        {shownStatus ? <DescribeJob view={v} status={shownStatus} /> : <p class="muted">Loading the status at #{at}…</p>}
      </Section>

      <Section id="timeline" title="Conditions timeline">
        <ConditionsTimeline timeline={timeline} start={v.job.creationTimestamp ?? v.status.startTime ?? undefined} running={!finished} onOpen={open} />
      </Section>

      {indexed && (
        <Section id="indexes" title={`Indexes${at === undefined ? '' : ` at #${at}`}`}>
          <ErrorNote error={indexes.error} />
          {indexes.data && (at === undefined || indexes.data.at.seq === at)
            ? <IndexGrid indexes={indexes.data} decided={outcomeDecidedIn(shownStatus)} />
            : <p class="muted">Loading the indexes…</p>}
        </Section>
      )}

      <Section id="why" title="Why">
        <Why explanation={explanation} onOpen={open} />
      </Section>

      <Section id="commands" title="Commands">
        <Commands commands={v.commands} managedBy={v.spec?.managedBy ?? null} onOpen={open} from={v.commandsFrom} />
        {v.commandsFrom > 1 && (
          <EarlierCommands<JobCommand>
            base={base}
            uid={uid}
            before={v.commandsFrom}
            render={(items) => <Commands commands={items} managedBy={v.spec?.managedBy ?? null} onOpen={open} />}
          />
        )}
      </Section>

      <HistoryPanel base={base} uid={uid} head={v.log.head} selected={entry} onOpen={open} />
    </main>
  );
}

/**
 * What needs an operator: a stalled Job (every reconcile fails, so jobfold decides nothing for
 * it until one commits) and a refused update (the Job folds under its last valid spec).
 */
function Attention({ view }: { view: JobView }) {
  const { stalled, refusedUpdate } = view;
  if (!stalled && !refusedUpdate) return null;
  return (
    <section class="attention-panel" aria-label="Needs attention">
      {stalled && (
        <div class="problem stalled" role="alert">
          <strong>Stalled since {utc(stalled.since)}.</strong> Every reconcile of this Job fails, so jobfold decides nothing for
          it; the next event of the Job tries again. The error:
          <pre><Text value={stalled.error} multiline /></pre>
        </div>
      )}
      {refusedUpdate && (
        <div class="problem refused">
          <strong>Update refused.</strong> The Job as observed at {utc(refusedUpdate.observedAt)} (event{' '}
          <code><Text value={refusedUpdate.eventId} /></code>) is one the API server would refuse; the Job folds under its last
          valid spec (shown below).
          <ul>
            {refusedUpdate.errors.map((e) => (
              // Upstream's messages start with the field path; name the field only when one does not.
              <li>
                {!e.message.startsWith(e.field) && <><code><Text value={e.field} /></code>: </>}
                <Text value={e.message} /> <span class="muted">({e.type})</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

/**
 * Whether the status says the Job's outcome is decided: a terminal condition (Complete, Failed)
 * or the interim one upstream sets first (SuccessCriteriaMet, FailureTarget) is True. From then
 * on the Job creates no pod, so an index not completed will not run.
 */
const DECIDING = new Set(['Complete', 'Failed', 'SuccessCriteriaMet', 'FailureTarget']);
function outcomeDecidedIn(status: JobStatus | undefined): boolean {
  return status?.conditions.some((c) => DECIDING.has(c.type) && c.status === 'True') ?? false;
}

function Crumbs({ cluster, namespace, name }: { cluster: string; namespace: string; name: string }) {
  return (
    <nav class="crumbs" aria-label="Breadcrumb">
      <a href={fleetHref()}>Fleet</a> › <a href={fleetHref({ cluster })}><Text value={cluster} /></a> ›{' '}
      <a href={fleetHref({ cluster, namespace })}><Text value={namespace} /></a> › <Text value={name} />
    </nav>
  );
}

function PointSlider({ head, at, setAt, point, error }: {
  head: number;
  at: number | undefined;
  setAt: (at: number | undefined) => void;
  point: StatusAt | undefined;
  error: string | undefined;
}) {
  const [draft, setDraft] = useState(at ?? head);
  useEffect(() => setDraft(at ?? head), [at, head]);
  useEffect(() => {
    if (draft === (at ?? head)) return;
    const timer = setTimeout(() => setAt(draft >= head ? undefined : draft), 150);
    return () => clearTimeout(timer);
  }, [draft]);
  return (
    <div class="slider">
      <label for="at-slider">Log position</label>
      <input
        id="at-slider"
        type="range"
        min={0}
        max={head}
        step={1}
        value={draft}
        aria-valuetext={`entry ${draft} of ${head}`}
        onInput={(e) => setDraft(Number((e.currentTarget as HTMLInputElement).value))}
      />
      <output for="at-slider">#{draft} of {head}</output>
      <button type="button" disabled={at === undefined} onClick={() => setAt(undefined)}>
        Follow the head
      </button>
      <p class="muted">
        {at === undefined
          ? 'Showing the head of the log; move the slider to see the status after any entry.'
          : point
            ? <>Status after entry #{point.at.seq}{point.at.recordedAt ? <>, recorded {utc(point.at.recordedAt)}</> : null}: <strong>{point.outcome}</strong>.</>
            : 'Loading…'}
      </p>
      <ErrorNote error={error} />
    </div>
  );
}

function DescribeJob({ view, status }: { view: JobView; status: JobStatus }) {
  const spec = view.spec;
  const duration = status.startTime && status.completionTime
    ? `${Math.round((Date.parse(status.completionTime) - Date.parse(status.startTime)) / 1000)}s`
    : undefined;
  const rows: [string, ComponentChildren][] = [
    ['Name', <Text value={view.job.name} />],
    ['Namespace', <Text value={view.job.namespace} />],
    ['Cluster', <Text value={view.job.clusterId} />],
    ['UID', <Text value={view.job.uid} />],
    ['Created', utc(view.job.creationTimestamp)],
  ];
  if (spec) {
    rows.push(
      ['Parallelism', spec.parallelism],
      ['Completions', spec.completions ?? '<unset>'],
      ['Completion Mode', spec.completionMode],
      ['Suspend', String(spec.suspend)],
      ['Backoff Limit', spec.backoffLimit],
    );
    if (spec.backoffLimitPerIndex !== null) rows.push(['Backoff Limit Per Index', spec.backoffLimitPerIndex]);
    if (spec.maxFailedIndexes !== null) rows.push(['Max Failed Indexes', spec.maxFailedIndexes]);
    if (spec.activeDeadlineSeconds !== null) rows.push(['Active Deadline Seconds', spec.activeDeadlineSeconds]);
    if (spec.managedBy !== null) rows.push(['Managed By', <Text value={spec.managedBy} />]);
    if (spec.podReplacementPolicy !== null) rows.push(['Pod Replacement Policy', spec.podReplacementPolicy]);
  }
  rows.push(['Start Time', utc(status.startTime)]);
  if (status.completionTime) rows.push(['Completed At', utc(status.completionTime)]);
  if (duration) rows.push(['Duration', duration]);
  rows.push([
    'Pods Statuses',
    `${status.active} Active (${status.ready} Ready) / ${status.succeeded} Succeeded / ${status.failed} Failed`,
  ]);
  if (status.terminating > 0) rows.push(['Terminating', status.terminating]);
  if (spec?.completionMode === 'Indexed') {
    rows.push(['Completed Indexes', <IndexList value={status.completedIndexes} />]);
    if (status.failedIndexes !== null) rows.push(['Failed Indexes', <IndexList value={status.failedIndexes} />]);
  }
  return (
    <>
      <Describe rows={rows} />
      <h3>Conditions</h3>
      {status.conditions.length === 0 ? (
        <p class="muted">&lt;none&gt;</p>
      ) : (
        <table class="conditions">
          <thead>
            <tr><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Reason</th><th scope="col">Message</th><th scope="col">Last Transition</th></tr>
          </thead>
          <tbody>
            {status.conditions.map((c) => (
              <tr>
                <td>{c.type}</td><td>{c.status}</td><td><Text value={c.reason} /></td><td><Text value={c.message} /></td><td>{utc(c.lastTransitionTime)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}


/** Characters of an interval list shown before "show all" (a 100,000-index list can be 600 KB). */
const LIST_PREVIEW = 240;

/** An interval list as `describe` prints it; a long one folds behind a disclosure. */
function IndexList({ value }: { value: string }) {
  if (value === '') return <code>&lt;none&gt;</code>;
  if (value.length <= LIST_PREVIEW) return <code><Text value={value} /></code>;
  const cut = value.lastIndexOf(',', LIST_PREVIEW);
  return (
    <details class="index-list">
      <summary>
        <code><Text value={value.slice(0, cut > 0 ? cut : LIST_PREVIEW)} />,…</code>{' '}
        <span class="muted">({value.length.toLocaleString('en')} characters: show all)</span>
      </summary>
      <code><Text value={value} /></code>
    </details>
  );
}
