export const REPLAY_HELP = `Usage: jobfold replay FILE [--json] [--at N] [--gate NAME=true|false]...

Folds FILE with jobfold's Job fold, reconciling the way the service does, and describes the Job
like "kubectl describe job": status, conditions, the commands jobfold issued (grouped by
reconcile time) and an explanation of each condition with its evidence.

FILE is one of
  a scenario: one JSON document in the conformance corpus format ({id, job, events, checkpoints},
    see ../shared/conformance/k8s-job/README.md); specs are not validated (as in the corpus).
  a JSONL stream: one event per line (blank lines are skipped), all of one Job; specs are
    validated, as the service does. Each line is either
    - an observation in the fold's own shape, envelope {"type", "eventId", "clusterId",
      "observedAt" (RFC 3339)} plus:
        {"type":"JobObserved", ..., "job":{...batch/v1 Job...}}
        {"type":"PodObserved", ..., "pod":{...core/v1 Pod...}}
        {"type":"PodDeleted",  ..., "uid":"<pod uid>", "name"?, "namespace"?}
        {"type":"JobDeleted",  ..., "uid":"<job uid>"}
        {"type":"Tick", ...}                       time passes (deadlines, backoff)
    - an EventBridge PutEvents entry, as the cluster forwarders send them to the service:
        {"Source":"jobfold.cluster.<clusterId>",
         "DetailType":"Pod Observed" | "Pod Deleted" | "Job Observed" | "Job Deleted",
         "Detail":"{\\"eventId\\":\\"...\\",\\"observedAt\\":\\"...\\",\\"object\\":{...}}"}
      Detail is a JSON string; object is the Pod or Job as the API server returns it (for the
      Deleted types the last known object, whose metadata.uid is used); a pod names its Job by
      ownerReference or the batch.kubernetes.io/controller-uid label
    - the same event as EventBridge delivers it: {"source", "detail-type", "detail": {...}}
    Inbound events are checked by the service's own parser (docs/events.md: same schemas, limits).
    Consecutive events with the same observedAt are one snapshot: jobfold reconciles once after
    each group, at that observedAt (the scenarios' execution model).

Options:
  --json                  print one JSON object {source, job, status, conditions, commands,
                          explanation, logLength} instead of the description
  --at N                  stop after scenario event N (0-based, like a checkpoint's afterEvent),
                          or after line N of a JSONL file (1-based, as errors count lines)
  --gate NAME=true|false  set a feature gate (repeatable). Known: PodFailurePolicyName.
                          Default: a scenario's featureGates (unset = false); for JSONL the
                          jobfold default (PodFailurePolicyName=true)
  -h, --help              show this help

Exit codes: 0 described; 1 bad input (unreadable file, invalid JSON, a field that fails the
schema, reported as FILE:LINE: field: message); 2 usage error.

JobSet inputs (told apart by content):
  a JobSet scenario: one JSON document in the JobSet corpus format ({id, jobset, events,
    checkpoints}, see ../shared/conformance/jobset/README.md), played as the conformance runner
    plays it: the JobSet fold reconciles to its fixed point after each event, commands assumed
    to succeed. --at N stops after event N (0 = the JobSet's creation); --gate does not apply.
  a JobSet trace: JSONL of inbound events (PutEvents entries or EventBridge events, as above)
    with "JobSet Observed" / "JobSet Deleted" lines, the JobSet's child Jobs ("Job Observed",
    "Job Deleted", ownerReference kind JobSet, labels jobset.sigs.k8s.io/replicatedjob-name,
    job-index, restart-attempt) and their pods. It is replayed through the service on an
    in-memory store: ingest, then after each group of events with the same observedAt every
    Job is reconciled (reporting its status to the JobSet's log) and then the JobSet. One
    JobSet per trace. --gate sets the Job fold's gates.
  Either is described like "kubectl describe jobset": replicated jobs and policies, restarts,
  replicated jobs status, conditions, child Jobs with their failure reasons, the commands
  jobfold issued, and the explanation of each condition and decision (--json: one object
  {source, jobSet, status, conditions, childJobs, commands, explanation, logLength}).`;
