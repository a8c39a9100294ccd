export const WHATIF_HELP = `Usage:
  jobfold whatif FILE --patch '<JSON merge patch of the Job or JobSet>' [--json]
  jobfold whatif [jobset/]CLUSTER/NAMESPACE/NAME --patch '<…>' [--json] [--endpoint URL]
  jobfold whatif --fleet [--cluster C] [-n NS] [--since 7d] [-l SEL] [--name-prefix P] [--owner KIND/NAME]
                 [--family KEY] [--finished] --patch '<…>' [--json] [--endpoint URL]

Refolds a recorded Job or JobSet under a patched spec and shows, next to the record, the
outcome the patched fold reaches, where it first decides differently (divergesAtEvent) and why,
and for a Job the pod-seconds it saves. The recorded events are evidence only up to that
divergence: an outcome reached by then is exact, anything later is reported as unknown
(docs/whatif.md).

  FILE                    a Job or JobSet scenario or JSONL trace, as "jobfold replay" reads it;
                          its replay is the record
  CLUSTER/NAMESPACE/NAME  a Job stored by the service (POST …/jobs/NAME/whatif)
  jobset/CLUSTER/NAMESPACE/NAME
                          a JobSet stored by the service (POST …/jobsets/NAME/whatif); the
                          patch changes its failurePolicy, successPolicy or startupPolicy
  --fleet                 every stored Job, page by page (POST /v1/whatif)
  --patch JSON            an RFC 7386 merge patch, e.g. '{"spec":{"backoffLimit":1}}'; the patched
                          spec is validated as the API server would (upstream field errors)
  --cluster, -n, --since  fleet filters (-n is --namespace); --since takes 7d, 12h, 30m or an
                          RFC 3339 time (without it the logs are read by a parallel scan, 4 call
                          chains side by side)
  -l, --selector SEL      fleet filters on the Job as first observed: its labels (app=etl,!canary),
  --name-prefix P         its name, its controller (CronJob/nightly-etl), its family
  --owner KIND/NAME       (docs/advise.md: cronjob:NAME, prefix:STEM-, labels:K=V,…, job:NAME);
  --family KEY            jobfold advise prints its reproducing commands with them
  --finished              only Jobs whose record holds their outcome
  --resume TOKEN          continue a fleet what-if that stopped part way (it prints PARTIAL and
                          the token); its counts add to the partial ones
  --json                  the report as JSON
  --endpoint URL          the query API (default $JOBFOLD_ENDPOINT or http://127.0.0.1:3000)
  -h, --help              this help

Exit codes: 0 done, 1 bad input or a refused patch, 2 usage, 3 the service could not be reached.`;
