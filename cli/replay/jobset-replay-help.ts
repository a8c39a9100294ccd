/** The JobSet part of `jobfold replay --help` (to follow REPLAY_HELP's FILE formats). */
export const JOBSET_REPLAY_HELP = `JobSet inputs (told apart by content):
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
