import type { Job } from '../../../shared/k8s/job.ts';
import type { EpochStore } from '../../../forwarder/watch/epoch-file.ts';
import { ObjectSequencer } from '../../../forwarder/watch/object-sequencer.ts';
import type { WatchedKind } from '../../../forwarder/observation.ts';
import { aJob, aPod, T0, withSpec, type PodOptions } from '../../support/builders.ts';
import { jobObservedEvent, podObservedEvent } from '../../support/inbound-events.ts';
import type { PutEntry } from './burst.ts';
import type { Outcome } from './fault-outcomes.ts';
import { CLUSTER, entry, jobPath, uidOf, withMeta, type StackCase, type StackProbe, type Step } from './stack-cases.ts';

// The fault suite's clock faults (issue 24, "Time"): the forwarders' stamps are wrong, the
// service's arrival time (the local stream's, as Kinesis's in AWS) is right. Every case is issue
// 24's reproduction or a variant of it, sent with the EventBridge SDK client to the local stack
// at the real time and judged by what the API answers: no stamp fails a deadline early or late,
// drops a newer observation as older, or wedges a pod or a Job (docs/data-model.md, "Time").
// Each runs with comparable resourceVersions (KEP-5504, Kubernetes 1.35) and without (an older
// cluster: only the forwarder's order stamp, or nothing at all), in one PutEvents call or one
// call a step, since a batch boundary must not change what a stamp does.

const HOUR = 3600_000;
const iso = (ms: number): string => new Date(ms).toISOString();
/** `ms` as RFC 3339 with a UTC offset of `minutes` (`…T01:43:37-05:00`), whole seconds. */
function withOffset(ms: number, minutes: number): string {
  const local = new Date(ms + minutes * 60_000).toISOString().slice(0, 19);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

type Versions = 'resourceVersions' | 'order stamps only' | 'no versions, no stamps';
const VERSIONS: readonly Versions[] = ['resourceVersions', 'order stamps only', 'no versions, no stamps'];
type Delivery = 'one call' | 'a call a step';

/** A step stamped when it is sent, `now` being the whole second it is sent in. */
type StampedStep = (now: number) => PutEntry[];
const wholeSecond = (ms: number) => Math.floor(ms / 1000) * 1000;
/** The steps as PutEvents calls: one call a step, or all in one call (stamped at once). */
function stepsOf(delivery: Delivery, steps: readonly StampedStep[]): Step[] {
  const at = (step: StampedStep) => (now: number) => step(wholeSecond(now));
  return delivery === 'one call' ? [at((now) => steps.flatMap((step) => step(now)))] : steps.map(at);
}

/** The forwarder's last epoch, outliving its process (forwarder/watch/epoch-file.ts keeps it beside the spool). */
class KeptEpoch implements EpochStore {
  last = 0;
  save(epoch: number): void {
    this.last = epoch;
  }
}

/**
 * One Job and its pods as a forwarder reports them: each event gets the next resourceVersion
 * (the cluster's order) and the forwarder's order stamp (its own ObjectSequencer, the list
 * started 10 s before the first event), as far as `versions` says. `restart` is a forwarder
 * restart on a clock `offsetMs` off: a new process, a new list, its last epoch kept beside the
 * spool (an EpochStore that outlives the process, as forwarder/watch/epoch-file.ts does).
 */
class Scene {
  readonly name: string;
  readonly uid: string;
  readonly versions: Versions;
  /** The eventIds of every event built (and so sent). */
  readonly sent: string[] = [];
  #job: Job;
  #rv = 100;
  #events = 0;
  #clockOffset = 0;
  #clock = 0;
  #sequencer: ObjectSequencer | undefined;
  readonly #epochs = new KeptEpoch();

  constructor(versions: Versions, spec: Parameters<typeof aJob>[0]) {
    this.versions = versions;
    this.uid = uidOf('clock');
    this.name = `clock-${this.uid.split('-')[1]}`;
    this.#job = aJob(spec, { name: this.name, uid: this.uid });
  }

  get job(): Job {
    return this.#job;
  }

  restart(now: number, offsetMs: number): void {
    this.#clockOffset = offsetMs;
    this.#list(now);
  }

  #list(now: number): void {
    this.#clock = now + this.#clockOffset;
    this.#sequencer = new ObjectSequencer(() => this.#clock, this.#epochs);
    this.#sequencer.relisted('Job');
    this.#sequencer.relisted('Pod');
  }

  #stamp(kind: WatchedKind, objectUid: string, now: number, detail: any): void {
    if (this.versions === 'resourceVersions') detail.object.metadata.resourceVersion = String(++this.#rv);
    if (this.versions !== 'no versions, no stamps') {
      if (this.#sequencer === undefined) this.#list(now - 10_000);
      this.#clock = now + this.#clockOffset;
      const sequence = this.#sequencer!.peek(kind, objectUid);
      this.#sequencer!.commit(objectUid, sequence);
      detail.sequence = sequence;
    }
    this.sent.push(detail.eventId);
  }

  /** The Job observed at `observedAt` (sent at `now`); created 5 s before the first observation was sent, as the API server stamps it (whole seconds). */
  jobAt(now: number, observedAt: string, change: Partial<Parameters<typeof withSpec>[1]> = {}, status?: Job['status']): PutEntry {
    if (this.#job.metadata.creationTimestamp === T0) this.#job = withMeta(this.#job, { creationTimestamp: iso(now - 5_000).replace('.000Z', 'Z') });
    let job = Object.keys(change).length === 0 ? this.#job : withSpec(this.#job, change);
    if (status) job = { ...job, status };
    return entry(jobObservedEvent(job, observedAt, { clusterId: CLUSTER, eventId: `${this.uid}/job/${++this.#events}` }), (d) => this.#stamp('Job', this.uid, now, d));
  }

  podAt(now: number, pod: string, observedAt: string, options: PodOptions = {}): PutEntry {
    const uid = `${this.uid}-${pod}`;
    const made = aPod({ name: `${this.name}-${pod}`, uid, creationTimestamp: this.#job.metadata.creationTimestamp, ...options });
    return entry(podObservedEvent(made, this.#job, observedAt, { clusterId: CLUSTER, eventId: `${uid}/${++this.#events}` }), (d) => this.#stamp('Pod', uid, now, d));
  }
}

/** What the API answers for a case's Job, as the judges read it. */
interface Seen {
  readonly status: number;
  readonly conditions: string[];
  readonly terminated: number;
  readonly succeeded: number;
  readonly startTime: string | undefined;
  readonly suspend: boolean | undefined;
  readonly text: string;
}

async function seen(probe: StackProbe, scene: Scene): Promise<Seen> {
  const { status, body } = await probe.get(jobPath('default', scene.name));
  const conditions: string[] = (body?.status?.conditions ?? []).map((c: any) => `${c.type}=${c.status}:${c.reason}`);
  const terminated = (body?.commands ?? []).filter((c: any) => c.type === 'TerminatePod').length;
  const succeeded = body?.status?.succeeded ?? 0;
  const startTime = body?.status?.startTime ?? undefined;
  const text = `${status}; conditions [${conditions.join(', ')}], succeeded ${succeeded}, ${terminated} termination(s), startTime ${startTime}, suspend ${body?.spec?.suspend}`;
  return { status, conditions, terminated, succeeded, startTime, suspend: body?.spec?.suspend, text };
}

/** Sent events neither in the log nor refused with a reason: what a bad stamp made vanish. */
async function unlogged(probe: StackProbe, scene: Scene): Promise<string[]> {
  const logged = new Set((await probe.log({ kind: 'Job', clusterId: CLUSTER, namespace: 'default', uid: scene.uid })).map((e) => e.eventId));
  return scene.sent.filter((id) => !logged.has(id) && probe.refusals(id).length === 0);
}

const failing = (s: Seen) => s.conditions.filter((c) => /^(Failed|FailureTarget)=True/.test(c));
const notLogged = (missing: readonly string[]) => (missing.length > 0 ? `; not logged: ${missing.join(', ')}` : '');

/** The Job runs on: no failure, no termination, `succeeded` (and Complete when `complete`) as sent, every event logged. */
async function judgeRunning(probe: StackProbe, scene: Scene, succeeded: number, complete = false): Promise<{ outcome: Outcome; detail: string }> {
  const s = await seen(probe, scene);
  const missing = await unlogged(probe, scene);
  const detail = `${s.text}${notLogged(missing)}`;
  if (s.status >= 500) return { outcome: 'crash', detail };
  if (s.status !== 200 || failing(s).length > 0 || s.terminated > 0) return { outcome: 'wrong write', detail };
  if (s.succeeded !== succeeded || (complete && !s.conditions.includes('Complete=True:CompletionsReached'))) return { outcome: 'wedged', detail };
  if (missing.length > 0) return { outcome: 'lost', detail };
  return { outcome: 'handled', detail };
}

/** The suspension took effect: spec and Suspended condition, no failure, every event logged. */
async function judgeSuspended(probe: StackProbe, scene: Scene): Promise<{ outcome: Outcome; detail: string }> {
  const s = await seen(probe, scene);
  const missing = await unlogged(probe, scene);
  const detail = `${s.text}${notLogged(missing)}`;
  if (s.status >= 500) return { outcome: 'crash', detail };
  if (s.status !== 200 || failing(s).length > 0) return { outcome: 'wrong write', detail };
  if (s.suspend !== true || !s.conditions.includes('Suspended=True:JobSuspended')) return { outcome: 'wedged', detail };
  if (missing.length > 0) return { outcome: 'lost', detail };
  return { outcome: 'handled', detail };
}

const after = (now: number, seconds: number) => iso(now + seconds * 1000);
/** Both pods of a 2-pod Job Running (so the Job expects no creation and manages its pods). */
const started = (scene: Scene, now: number, observedAt: string) => [scene.jobAt(now, observedAt), scene.podAt(now, 'a', observedAt), scene.podAt(now, 'b', observedAt)];

/**
 * A one-hour deadline, two pods Running, then one event stamped far ahead (9999-12-31, a clock
 * stepped 2 h ahead, just past the deadline): the Job does not fail, no pod is terminated, and
 * the pod's later Succeeded (stamped right) still counts.
 */
function stampAhead(label: string, stamp: (now: number) => string, carrier: 'pod' | 'job', versions: Versions, delivery: Delivery): StackCase {
  const scene = new Scene(versions, { completions: 2, parallelism: 2, activeDeadlineSeconds: 3600 });
  return {
    fault: 'clocks', name: `${label} on ${carrier === 'pod' ? 'a pod turning ready' : 'the Job observed again'}, a 1 h deadline; ${versions}, ${delivery}`,
    steps: stepsOf(delivery, [
      (now) => started(scene, now, iso(now)),
      (now) => [carrier === 'pod' ? scene.podAt(now, 'a', stamp(now), { ready: iso(now) }) : scene.jobAt(now, stamp(now))],
      (now) => [scene.podAt(now, 'a', after(now, 1), { phase: 'Succeeded', finishedAt: iso(now) })],
    ]),
    judge: (probe) => judgeRunning(probe, scene, 1),
  };
}

/** A Job first seen stamped 1970 (or Go's zero time): its start is its creation, its deadline does not pass at once. */
function stampedLongAgo(label: string, stamp: string, everyEvent: boolean, versions: Versions): StackCase {
  const scene = new Scene(versions, { completions: 2, parallelism: 2, activeDeadlineSeconds: 3600 });
  const at = (now: number, s: number) => (everyEvent ? stamp : after(now, s));
  return {
    fault: 'clocks', name: `a Job first seen stamped ${label}${everyEvent ? ', every event so' : ''}, a 1 h deadline; ${versions}`,
    steps: [
      (now) => [scene.jobAt(now, stamp)],
      (now) => [scene.podAt(now, 'a', at(now, 0)), scene.podAt(now, 'b', at(now, 0))],
      (now) => [scene.podAt(now, 'a', at(now, 1), { phase: 'Succeeded', finishedAt: iso(now) })],
    ],
    judge: async (probe) => {
      const verdict = await judgeRunning(probe, scene, 1);
      const s = await seen(probe, scene);
      const created = Date.parse(scene.job.metadata.creationTimestamp!);
      if (verdict.outcome === 'handled' && (s.startTime === undefined || Date.parse(s.startTime) < created)) {
        return { outcome: 'wrong write', detail: `a startTime before the Job's creation (${scene.job.metadata.creationTimestamp}): ${s.text}` };
      }
      return verdict;
    },
  };
}

/** A Job observed with a stamp far ahead, then suspended (stamped right): the suspension takes effect. */
function suspendAfterFarStamp(label: string, stamp: (now: number) => string, versions: Versions, delivery: Delivery): StackCase {
  const scene = new Scene(versions, { completions: 2, parallelism: 2 });
  return {
    fault: 'clocks', name: `the Job observed stamped ${label}, then suspended; ${versions}, ${delivery}`,
    steps: stepsOf(delivery, [
      (now) => started(scene, now, iso(now)),
      (now) => [scene.jobAt(now, stamp(now))],
      (now) => [scene.jobAt(now, after(now, 1), { suspend: true })],
    ]),
    judge: (probe) => judgeSuspended(probe, scene),
  };
}

/**
 * The same clock written differently: a pod Running at `…:39Z`, then Succeeded a moment later
 * written with an offset or a fraction (text that sorts *before* the first): it counts.
 */
function laterAsText(label: string, later: (ms: number) => string, gapMs: number, versions: Versions, delivery: Delivery): StackCase {
  const scene = new Scene(versions, { completions: 2, parallelism: 2 });
  const whole = (ms: number) => iso(ms).replace('.000Z', 'Z');
  return {
    fault: 'clocks', name: `a pod's Succeeded stamped ${label} after its Running; ${versions}, ${delivery}`,
    steps: stepsOf(delivery, [
      (now) => started(scene, now, whole(now)),
      (now) => [scene.podAt(now, 'a', later(now + gapMs), { phase: 'Succeeded', finishedAt: whole(now) })],
    ]),
    judge: (probe) => judgeRunning(probe, scene, 1),
  };
}

/** The Job's suspension stamped with an offset, 60 s after its first observation. */
function suspendWithOffset(label: string, later: (ms: number) => string, versions: Versions, delivery: Delivery): StackCase {
  const scene = new Scene(versions, { completions: 2, parallelism: 2 });
  return {
    fault: 'clocks', name: `the Job suspended, stamped ${label} 60 s after its first observation; ${versions}, ${delivery}`,
    steps: stepsOf(delivery, [
      (now) => started(scene, now, iso(now).replace('.000Z', 'Z')),
      (now) => [scene.jobAt(now, later(now + 60_000), { suspend: true })],
    ]),
    judge: (probe) => judgeSuspended(probe, scene),
  };
}

/**
 * A forwarder restarted with its clock 60 s behind: its new list's epoch and every later stamp
 * are "earlier" than what it sent before. A pod's Succeeded, and the other pod's after it, still
 * count: the Job completes. Or the Job's suspension, sent after the restart, takes effect.
 */
function restartBehind(versions: Versions, what: 'pods' | 'job'): StackCase {
  const scene = new Scene(versions, { completions: 2, parallelism: 2 });
  const behind = (now: number, s: number) => after(now - 60_000, s);
  const restarted = (step: StampedStep): StampedStep => (now) => {
    scene.restart(now, -60_000);
    return step(now);
  };
  return {
    fault: 'clocks', name: `a forwarder restarted with its clock 60 s behind, then ${what === 'pods' ? 'both pods Succeeded' : 'the Job suspended'}; ${versions}`,
    steps: stepsOf('a call a step', what === 'pods'
      ? [
        (now) => started(scene, now, iso(now)),
        restarted((now) => [scene.podAt(now, 'a', behind(now, 0), { phase: 'Succeeded', finishedAt: behind(now, -1) })]),
        (now) => [scene.podAt(now, 'b', behind(now, 0), { phase: 'Succeeded', finishedAt: behind(now, -1) })],
      ]
      : [(now) => started(scene, now, iso(now)), restarted((now) => [scene.jobAt(now, behind(now, 0), { suspend: true })])]),
    judge: (probe) => (what === 'job' ? judgeSuspended(probe, scene) : judgeRunning(probe, scene, 2, true)),
  };
}

/** A newer resourceVersion stamped 30 s "earlier" than the one before: it is newer, and applied. */
function newerVersionEarlierStamp(what: 'job' | 'pod', delivery: Delivery): StackCase {
  const scene = new Scene('resourceVersions', { completions: 2, parallelism: 2 });
  return {
    fault: 'clocks', name: `a newer resourceVersion of the ${what === 'job' ? 'Job (suspend: true)' : 'pod (Succeeded)'} stamped 30 s earlier; ${delivery}`,
    steps: stepsOf(delivery, [
      (now) => started(scene, now, iso(now)),
      (now) => [what === 'job' ? scene.jobAt(now, after(now, -30), { suspend: true }) : scene.podAt(now, 'a', after(now, -30), { phase: 'Succeeded', finishedAt: after(now, -31) })],
    ]),
    judge: (probe) => (what === 'job' ? judgeSuspended(probe, scene) : judgeRunning(probe, scene, 1)),
  };
}

/**
 * A 1 s deadline on a cluster whose clock is off: upstream's controller, in the cluster, fails
 * the Job one second after its startTime on the cluster's clock. jobfold decides it about then
 * too (FailureTarget, the pod to terminate; Failed follows once the cluster reports the pod
 * gone), not hours late (a clock ahead) nor never.
 */
function shortDeadline(label: string, offsetMs: number, reportsStart: boolean): StackCase {
  const scene = new Scene('resourceVersions', { activeDeadlineSeconds: 1 });
  return {
    fault: 'clocks', name: `a 1 s deadline on a cluster ${label}${reportsStart ? ', its startTime reported' : ''}`,
    steps: [(now) => {
      const clusterNow = iso(wholeSecond(now) + offsetMs);
      const status = reportsStart ? { startTime: clusterNow.replace('.000Z', 'Z'), active: 1 } : undefined;
      return [scene.jobAt(now, clusterNow, {}, status), scene.podAt(now, 'a', clusterNow)];
    }],
    judge: async (probe) => {
      // The deadline's wake-up is due a second after the Job was seen: wait for it (at most 30 s).
      const decided = (s: Seen) => s.conditions.includes('FailureTarget=True:DeadlineExceeded') && s.terminated === 1;
      let s = await seen(probe, scene);
      for (let waited = 0; waited < 30_000 && !decided(s); waited += 250) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        s = await seen(probe, scene);
      }
      if (s.status >= 500) return { outcome: 'crash', detail: s.text };
      return decided(s) ? { outcome: 'handled', detail: s.text } : { outcome: 'wedged', detail: `not failed by its deadline within 30 s: ${s.text}` };
    },
  };
}

/** The clock class. Stamps are set when each step is sent: the service's arrival clock is the real one. */
export function clockCases(): StackCase[] {
  const ahead: [string, (now: number) => string][] = [
    ['9999-12-31T23:59:59Z', () => '9999-12-31T23:59:59Z'],
    ['9999-12-31T23:59:59.999999999Z', () => '9999-12-31T23:59:59.999999999Z'],
    ['2 h ahead (a forwarder clock stepped)', (now) => iso(now + 2 * HOUR)],
    ['1 h 1 s ahead (just past the deadline)', (now) => iso(now + HOUR + 1000)],
  ];
  const deliveries: readonly Delivery[] = ['one call', 'a call a step'];
  const longAgo = [['1970-01-01T00:00:00Z', '1970-01-01T00:00:00Z'], ['0001-01-01T00:00:00Z (Go\'s zero time)', '0001-01-01T00:00:00Z']] as const;
  const asText: [string, (ms: number) => string, number][] = [
    ['60 s later as -05:00', (ms) => withOffset(ms, -300), 60_000],
    ['60 s later as +05:30', (ms) => withOffset(ms, 330), 60_000],
    ['0.5 s later (…39.5Z after …39Z)', (ms) => iso(ms).replace(/\.(\d)00Z$/, '.$1Z'), 500],
    ['1 ns later (nanoseconds)', (ms) => iso(ms).replace('.000Z', '.000000001Z'), 0],
  ];
  const cases: StackCase[] = [];
  for (const versions of VERSIONS) {
    for (const delivery of deliveries) {
      for (const [label, stamp] of ahead) for (const carrier of ['pod', 'job'] as const) cases.push(stampAhead(label, stamp, carrier, versions, delivery));
      cases.push(suspendAfterFarStamp('9999-12-31T23:59:59Z', () => '9999-12-31T23:59:59Z', versions, delivery));
      cases.push(suspendAfterFarStamp('2 h ahead', (now) => iso(now + 2 * HOUR), versions, delivery));
      for (const [label, later, gap] of asText) cases.push(laterAsText(label, later, gap, versions, delivery));
      cases.push(suspendWithOffset('as -05:00', (ms) => withOffset(ms, -300), versions, delivery));
      cases.push(suspendWithOffset('as +00:00', (ms) => withOffset(ms, 0), versions, delivery));
    }
    for (const [label, stamp] of longAgo) for (const every of [false, true]) cases.push(stampedLongAgo(label, stamp, every, versions));
    cases.push(restartBehind(versions, 'pods'));
    // Not a case with neither versions nor stamps: an unstamped update of a Job from a cluster
    // without comparable resourceVersions, stamped 60 s "earlier" by a restarted forwarder, is
    // indistinguishable from a late copy of an older update; such updates are ordered by their
    // time (docs/events.md, "Ordering"). Today's forwarder stamps every event.
    if (versions !== 'no versions, no stamps') cases.push(restartBehind(versions, 'job'));
  }
  for (const delivery of deliveries) cases.push(newerVersionEarlierStamp('job', delivery), newerVersionEarlierStamp('pod', delivery));
  cases.push(
    shortDeadline('3 h ahead', 3 * HOUR, true),
    shortDeadline('3 h ahead', 3 * HOUR, false),
    shortDeadline('in step with the service', 0, true),
    shortDeadline('3 h behind', -3 * HOUR, true),
  );
  return cases;
}
