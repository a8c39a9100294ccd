import type { LogEntry } from '../../../shared/log/event-store.ts';
import { entryEvent } from '../../../shared/job/index.ts';
import type { DecisionOf, TerminationCause } from '../../../shared/job/index.ts';
import { conditionSentence, jobCorrectionSentence } from '../../../shared/job/index.ts';
import type { JobState } from '../../../shared/job/index.ts';
import { decisionSentence, jobSetCorrection, jobSetEntryEvent, type JobSetDecisionEvent, type LoggedJobSetDecision } from '../../../shared/jobset/index.ts';
import { correctionSentence, loggedCorrection, type OutcomeCorrection } from '../../../shared/read-model/explanation.ts';
import type { JobSetState } from '../../../shared/jobset/index.ts';
import { objectVersion } from '../resource-version.ts';
import { compact, derivedUid, metaTime } from './meta.ts';

// core/v1 Events built from the decisions jobfold logged: the Events the Job controller (or the
// JobSet controller) emits for them, upstream's reasons and messages verbatim, with jobfold's
// evidence after the message. `involvedObject` names the Job with its exact uid, so `kubectl
// describe job` finds them, however old.
//
// Job decisions and their events (pkg/controller/job, and RealPodControl in controller_utils.go):
//   Complete True        Normal  Completed "Job completed" (and TooManySucceededPods, Warning,
//                                when more pods succeeded than completions)
//   Failed True          Warning <the condition's reason> <the condition's message>
//   Suspended True/False Normal  Suspended "Job suspended" / Resumed "Job resumed"
//   pods terminated      Normal  SuccessfulDelete "Deleted pod: <name>", one per pod
//   pods created         Normal  SuccessfulCreate "Created pod: …" (pods of Jobs jobfold runs)
// The interim conditions (FailureTarget, SuccessCriteriaMet) have no Event upstream; their
// evidence is what the terminal condition's Event carries. Like the API server's event
// correlator (10 similar events, then one "(combined from similar events)" with a count), a
// termination's pods after the tenth are one Event per log entry, counted.
// A JobSet's condition changes are Events with the condition's reason and message.
// An outcome jobfold took back (a Job's JobOutcomeCorrected, a JobSet's JobSetOutcomeCorrected,
// or in older JobSet logs a decision that `corrects` another; issue 21) has no Event upstream, whose controller never decides twice: jobfold's own
// Warning `OutcomeCorrected`, the same for both kinds, with the explanation's sentence, goes
// before the Events of the outcome that replaces it.

export type EventObject = {
  apiVersion: 'v1';
  kind: 'Event';
  metadata: { name: string; namespace: string; uid: string; resourceVersion: string; creationTimestamp?: string };
  involvedObject: { kind: string; namespace: string; name: string; uid: string; apiVersion: string; resourceVersion: string };
  reason: string;
  message: string;
  source: { component: string };
  firstTimestamp?: string;
  lastTimestamp?: string;
  count: number;
  type: 'Normal' | 'Warning';
  eventTime: null;
  reportingComponent: string;
  reportingInstance: string;
};

/** The object the events of a log are about. */
export interface InvolvedObject {
  readonly kind: 'Job' | 'JobSet';
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
}

/** Pods named one Event each per termination; the rest are combined (the correlator's 10). */
export const SIMILAR_EVENTS = 10;
const COMBINED = '(combined from similar events): ';
const REPORTING_COMPONENT = 'jobfold.io/job-controller';

interface Draft {
  readonly reason: string;
  readonly message: string;
  readonly type: 'Normal' | 'Warning';
  readonly count?: number;
}

/**
 * Reads a log's decisions into Events: `entries` in log order (any run of the log); `state`
 * is the object's state at the head (it names pods and spec values in the evidence);
 * `before` counts the pods already named by termination pages that precede `entries`, per
 * termination, so a page read alone combines its pods as the whole decision would.
 */
export class EventBuilder {
  readonly #involved: InvolvedObject;
  readonly #job: JobState | undefined;
  readonly #jobSet: JobSetState | undefined;
  /** Interim conditions by type, as logged: the terminal condition's event cites them. */
  readonly #interim = new Map<string, DecisionOf<'JobConditionChanged'>>();
  /** Pods named so far by the termination each page continues (eventId of its first page). */
  readonly #named = new Map<string, number>();
  /** A JobSet's outcome decisions read so far: a correction names the one it takes back. */
  readonly #outcomes: LoggedJobSetDecision[] = [];

  constructor(involved: InvolvedObject, state: { job?: JobState; jobSet?: JobSetState }) {
    this.#involved = involved;
    this.#job = state.job;
    this.#jobSet = state.jobSet;
  }

  /** The Events of one entry (none for observations and decisions upstream records no Event for). */
  eventsOf(entry: LogEntry): EventObject[] {
    const drafts = this.#involved.kind === 'Job' ? this.#jobDrafts(entry) : this.#jobSetDrafts(entry);
    return drafts.map((draft, sub) => this.#event(entry, sub, draft));
  }

  #jobDrafts(entry: LogEntry): Draft[] {
    if (!JOB_EVENT_DECISIONS.has(entry.type)) return [];
    const decision = entryEvent(entry);
    switch (decision.type) {
      case 'JobConditionChanged': return this.#conditionDrafts(decision);
      case 'PodsTerminationRequested': return this.#terminationDrafts(decision);
      case 'PodCreationsRequested': return creationDrafts(decision);
      case 'JobOutcomeCorrected': return [{ reason: 'OutcomeCorrected', message: jobCorrectionSentence(decision).trim(), type: 'Warning' }];
      default: return [];
    }
  }

  #conditionDrafts(decision: DecisionOf<'JobConditionChanged'>): Draft[] {
    const { condition, evidence } = decision;
    if (condition.type === 'FailureTarget' || condition.type === 'SuccessCriteriaMet') {
      this.#interim.set(condition.type, decision);
      return [];
    }
    const interim = evidence.follows === undefined ? undefined : this.#interim.get(evidence.follows);
    const why = this.#sentence(interim ?? decision, interim === undefined ? undefined : decision.seq);
    if (condition.type === 'Complete' && condition.status === 'True') {
      const succeeded = (interim ?? decision).evidence.succeeded;
      const completions = this.#job?.settings?.completions;
      const tooMany = succeeded !== undefined && completions !== undefined && succeeded > completions;
      return [
        ...(tooMany ? [{ reason: 'TooManySucceededPods', message: 'Too many succeeded pods running after completion count reached', type: 'Warning' as const }] : []),
        { reason: 'Completed', message: withEvidence('Job completed', why), type: 'Normal' },
      ];
    }
    if (condition.type === 'Failed' && condition.status === 'True') {
      return [{ reason: condition.reason, message: withEvidence(condition.message, why), type: 'Warning' }];
    }
    if (condition.type === 'Suspended') {
      return condition.status === 'True'
        ? [{ reason: 'Suspended', message: withEvidence('Job suspended', why), type: 'Normal' }]
        : [{ reason: 'Resumed', message: withEvidence('Job resumed', why), type: 'Normal' }];
    }
    return [];
  }

  /** jobfold's sentence for a condition decision (shared/job/explain.ts). */
  #sentence(decision: DecisionOf<'JobConditionChanged'>, terminalSeq: number | undefined): string | undefined {
    if (this.#job === undefined) return undefined;
    const sentence = conditionSentence({
      state: this.#job, condition: decision.condition, evidence: decision.evidence, interimSeq: undefined, lingering: 0,
    });
    return terminalSeq === undefined ? sentence : `${sentence}; the Job finished once no pod was left terminating (event #${terminalSeq})`;
  }

  #terminationDrafts(decision: DecisionOf<'PodsTerminationRequested'>): Draft[] {
    const root = decision.page === undefined ? decision.eventId : decision.eventId.replace(/\/page\/\d+$/, '');
    const before = this.#named.get(root) ?? 0;
    this.#named.set(root, before + decision.pods.length);
    const why = `jobfold: ${CAUSE_TEXT[decision.cause]}${decision.reason === '' ? '' : ` (${decision.reason})`}, event #${decision.seq ?? '?'}`;
    const single = Math.max(0, Math.min(decision.pods.length, SIMILAR_EVENTS - before));
    const drafts: Draft[] = decision.pods.slice(0, single).map((pod) => ({
      reason: 'SuccessfulDelete', message: `Deleted pod: ${pod.name} (${why})`, type: 'Normal',
    }));
    const rest = decision.pods.slice(single);
    const last = rest.at(-1);
    if (last !== undefined) {
      drafts.push({ reason: 'SuccessfulDelete', message: `${COMBINED}Deleted pod: ${last.name} (${why}; ${rest.length} pods)`, type: 'Normal', count: rest.length });
    }
    return drafts;
  }

  #jobSetDrafts(entry: LogEntry): Draft[] {
    if (!JOBSET_CONDITION_DECISIONS.has(entry.type)) return [];
    const event = jobSetEntryEvent(entry) as JobSetDecisionEvent;
    if (event.type === 'JobSetOutcomeCorrected') return [correctionDraft(loggedCorrection(entry.seq, event.at, event))];
    // A condition moved to where the cluster wrote it changes no condition: no Event.
    if (!('condition' in event) || (event.type === 'JobSetConditionChanged' && event.movedBefore !== undefined)) return [];
    // A condition taken back (the cluster never wrote it): a Warning saying so.
    if (event.type === 'JobSetConditionChanged' && event.retracted !== undefined) {
      const why = this.#jobSet === undefined ? undefined : decisionSentence(this.#jobSet, event);
      return [{ reason: 'ConditionRetracted', message: withEvidence(`${event.condition.type} taken back`, why), type: 'Warning' }];
    }
    const { condition } = event;
    const why = this.#jobSet === undefined ? undefined : decisionSentence(this.#jobSet, event);
    const warning = condition.type === 'Failed' || (condition.type === 'RestartingJobSet' && condition.status === 'True');
    const draft: Draft = { reason: condition.reason, message: withEvidence(condition.message, why), type: warning ? 'Warning' : 'Normal' };
    // A log written before JOBSET_FOLD_VERSION .10: the correction is the decision's `corrects`.
    if (event.type !== 'JobSetConditionChanged') this.#outcomes.push({ seq: entry.seq, event });
    const correction = this.#jobSet === undefined ? undefined : jobSetCorrection(this.#jobSet, { seq: entry.seq, event }, this.#outcomes);
    return correction === undefined ? [draft] : [correctionDraft(correction), draft];
  }

  #event(entry: LogEntry, sub: number, draft: Draft): EventObject {
    const { kind, namespace, name, uid } = this.#involved;
    const at = metaTime(entry.observedAt);
    const version = objectVersion(entry.recordedAt, entry.seq);
    return {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: compact({ name: eventName(name, entry.seq, sub), namespace, uid: derivedUid(`${uid}/${entry.seq}/${sub}`), resourceVersion: version, creationTimestamp: at }),
      involvedObject: { kind, namespace, name, uid, apiVersion: kind === 'Job' ? 'batch/v1' : 'jobset.x-k8s.io/v1alpha2', resourceVersion: version },
      reason: draft.reason,
      message: draft.message,
      source: { component: 'jobfold' },
      ...compact({ firstTimestamp: at, lastTimestamp: at }),
      count: draft.count ?? 1,
      type: draft.type,
      eventTime: null,
      reportingComponent: REPORTING_COMPONENT,
      reportingInstance: 'jobfold',
    };
  }
}

const JOB_EVENT_DECISIONS: ReadonlySet<string> = new Set(['JobConditionChanged', 'PodsTerminationRequested', 'PodCreationsRequested', 'JobOutcomeCorrected']);

/** jobfold's Event for an outcome it took back, the same for every kind. */
const correctionDraft = (correction: OutcomeCorrection): Draft =>
  ({ reason: 'OutcomeCorrected', message: correctionSentence(correction).trim(), type: 'Warning' });

const JOBSET_CONDITION_DECISIONS: ReadonlySet<string> = new Set(['JobSetConditionChanged', 'JobSetRestarted', 'JobSetFailed', 'JobSetCompleted', 'JobSetOutcomeCorrected']);

const CAUSE_TEXT: Readonly<Record<TerminationCause, string>> = {
  JobFinishing: 'the Job\'s outcome was decided, its lingering pods are deleted',
  JobFinished: 'the pod appeared after the Job finished',
  JobSuspended: 'the Job is suspended',
  ExcessPods: 'more pods were active than the Job wants',
  InvalidIndex: 'the pod has no valid completion index',
  DuplicateIndex: 'another pod runs the same completion index',
};

function creationDrafts(decision: DecisionOf<'PodCreationsRequested'>): Draft[] {
  const indexes = decision.indexes === undefined ? '' : `, indexes ${decision.indexes.join(',')}`;
  return [{
    reason: 'SuccessfulCreate',
    message: `Created pod: ${decision.count} ${decision.count === 1 ? 'pod' : 'pods'} (jobfold asked the cluster to create them${indexes}, event #${decision.seq ?? '?'})`,
    type: 'Normal',
    count: decision.count,
  }];
}

function withEvidence(message: string, why: string | undefined): string {
  if (why === undefined) return message;
  return message === '' ? `jobfold: ${why}` : `${message} (jobfold: ${why})`;
}

/**
 * `<object name>.<16 hex digits>`, like the API server's `<name>.<unix nanos in hex>`: the
 * log position (12 digits) and the event's place among the entry's (4), so a name leads
 * back to its entry.
 */
export function eventName(objectName: string, seq: number, sub: number): string {
  return `${objectName}.${seq.toString(16).padStart(12, '0')}${sub.toString(16).padStart(4, '0')}`;
}

/** The log position and place an event name encodes, and the object name before them. */
export function parseEventName(name: string): { objectName: string; seq: number; sub: number } | undefined {
  const match = /^(.+)\.([0-9a-f]{12})([0-9a-f]{4})$/.exec(name);
  if (match === null) return undefined;
  return { objectName: match[1] as string, seq: Number.parseInt(match[2] as string, 16), sub: Number.parseInt(match[3] as string, 16) };
}


/** What an Event's field selectors read (the API server's event field set). */
export function eventFields(event: EventObject): Record<string, string> {
  const o = event.involvedObject;
  return {
    'metadata.name': event.metadata.name,
    'metadata.namespace': event.metadata.namespace,
    'involvedObject.kind': o.kind,
    'involvedObject.namespace': o.namespace,
    'involvedObject.name': o.name,
    'involvedObject.uid': o.uid,
    'involvedObject.apiVersion': o.apiVersion,
    'involvedObject.resourceVersion': o.resourceVersion,
    'involvedObject.fieldPath': '',
    reason: event.reason,
    reportingComponent: event.reportingComponent,
    source: event.source.component,
    type: event.type,
  };
}
