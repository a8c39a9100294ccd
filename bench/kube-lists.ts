import { fileURLToPath } from 'node:url';
import { TraceRecorder, type RecordedEntry } from '../local/sample/trace-recorder.ts';
import { phase } from './bench-progress.ts';
import { openBenchStack, putAll, round, type BenchStack } from './bench-stack.ts';
import { packedFeed } from './packed-feed.ts';

// The kube API at the sizes users have (docs/kubectl.md), through the local stack on DynamoDB
// Local, fed by the EventBridge SDK client: a Job of `pods` pods (every pod run and succeeded,
// packed as the forwarder sends them), listed as `kubectl get pods -l job-name=X
// --chunk-size=500` lists them; and `jobs` Jobs over `clusters` clusters, listed as `kubectl get
// jobs -A --chunk-size=500` lists them, cluster by cluster. Each list is paged to its end with
// kubectl's Accept (a Table, objects as metadata); every object must come exactly once.
// Figures: pages, seconds, read units per page (ReturnConsumedCapacity). Never asserted.

export const KUBE_BENCH_HELP = `and the kube API at size (bench/kube-lists.ts; skipped with --no-kube; --kube-pods N, --kube-jobs N):
  kubePodsListSeconds   \`get pods -l job-name=X --chunk-size=500\` of a 10,000-pod Job, paged to the end
                        (kubePodsPages, kubePodsEveryPodOnce, kubePodsRcuPerPage)
  kubeJobsListSeconds   \`get jobs -A --chunk-size=500\` over 10,000 Jobs on 20 clusters, every cluster's
                        context paged to the end (kubeJobsPages, kubeJobsEveryJobOnce, kubeJobsRcuPerPage)`;

export interface KubeListFigures {
  readonly kubePods: number;
  readonly kubePodsPages: number;
  readonly kubePodsListSeconds: number;
  readonly kubePodsEveryPodOnce: boolean;
  readonly kubePodsRcuPerPage: number;
  readonly kubeJobs: number;
  readonly kubeJobsClusters: number;
  readonly kubeJobsPages: number;
  readonly kubeJobsListSeconds: number;
  readonly kubeJobsEveryJobOnce: boolean;
  readonly kubeJobsRcuPerPage: number;
  /** Seconds to feed and decide the fleet (context for the list figures, not a kube figure). */
  readonly kubeFeedSeconds: number;
}

const CHUNK = 500;
/** What `kubectl get` asks for. */
const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const POD_CLUSTER = 'bench-kube-pods';

export async function runKubeListBench(options: { pods?: number; jobs?: number; clusters?: number } = {}): Promise<KubeListFigures> {
  const { pods = 10_000, jobs = 10_000, clusters = 20 } = options;
  const bench = await openBenchStack('kube');
  try {
    const feedStart = performance.now();
    const trace = new TraceRecorder(new Date().toISOString(), 'b0c5');
    const big = trace.job(POD_CLUSTER, 0, 'bench', `pods-${pods}`, { completionMode: 'Indexed', completions: pods, parallelism: pods, backoffLimit: pods });
    for (let i = 0; i < pods; i++) trace.exitPod(trace.runPod(big, 1, i), 2, 0);
    const fleet = new TraceRecorder(new Date().toISOString(), 'b0c6');
    for (let i = 0; i < jobs; i++) {
      fleet.job(`bench-kube-${String(i % clusters).padStart(2, '0')}`, 0, `team-${Math.floor(i / clusters) % 5}`, `job-${String(i).padStart(5, '0')}`, {});
    }
    await feed(bench, 'kube: a big Job put', [...packedFeed(trace.entries)]);
    await feed(bench, 'kube: the fleet put', fleet.entries);
    await settle(bench, POD_CLUSTER, big.name, pods, jobs + 1);
    const kubeFeedSeconds = (performance.now() - feedStart) / 1000;

    const podList = await pageThrough(bench, `/k8s/clusters/${POD_CLUSTER}/api/v1/namespaces/bench/pods?labelSelector=${encodeURIComponent(`job-name=${big.name}`)}`);
    let jobPages = 0;
    let jobSeconds = 0;
    let jobUnits = 0;
    const jobUids: string[] = [];
    for (let c = 0; c < clusters; c++) {
      const list = await pageThrough(bench, `/k8s/clusters/bench-kube-${String(c).padStart(2, '0')}/apis/batch/v1/jobs`);
      jobPages += list.pages;
      jobSeconds += list.seconds;
      jobUnits += list.readUnits;
      jobUids.push(...list.uids);
    }
    const expectedJobs = new Set(fleet.entries.map((e) => (JSON.parse(e.Detail) as { object: { metadata: { uid: string } } }).object.metadata.uid));
    return {
      kubePods: pods,
      kubePodsPages: podList.pages,
      kubePodsListSeconds: round(podList.seconds),
      kubePodsEveryPodOnce: podList.uids.length === pods && new Set(podList.uids).size === pods,
      kubePodsRcuPerPage: round(podList.readUnits / podList.pages),
      kubeJobs: jobs,
      kubeJobsClusters: clusters,
      kubeJobsPages: jobPages,
      kubeJobsListSeconds: round(jobSeconds),
      kubeJobsEveryJobOnce: jobUids.length === expectedJobs.size && new Set(jobUids).size === expectedJobs.size && jobUids.every((uid) => expectedJobs.has(uid)),
      kubeJobsRcuPerPage: round(jobUnits / jobPages),
      kubeFeedSeconds: round(kubeFeedSeconds),
    };
  } finally {
    await bench.stop();
  }
}

async function feed(bench: BenchStack, label: string, entries: readonly RecordedEntry[]): Promise<void> {
  const shown = phase(label, entries.length);
  let put = 0;
  await putAll(bench.client, entries, 8, (n) => shown.update((put += n)));
  shown.end();
}

/** Until the big Job has every pod succeeded and the fleet view counts every Job. */
async function settle(bench: BenchStack, cluster: string, name: string, pods: number, total: number): Promise<void> {
  const shown = phase('kube: settling (Jobs in the fleet view)', total);
  for (;;) {
    // The status alone (the Job view would explain 10,000 pods at every poll).
    const job = await (await fetch(`${bench.stack.url}/v1/clusters/${cluster}/namespaces/bench/jobs/${name}/status`)).json() as { status?: { succeeded?: number } };
    const overview = await (await fetch(`${bench.stack.url}/v1/fleet`)).json() as { total?: number };
    shown.update(overview.total ?? 0);
    if (job.status?.succeeded === pods && overview.total === total) break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  shown.end();
}

/** Pages a kube list with limit=CHUNK as kubectl does; the uids it listed, pages, seconds and read units. */
async function pageThrough(bench: BenchStack, path: string): Promise<{ uids: string[]; pages: number; seconds: number; readUnits: number }> {
  const uids: string[] = [];
  let pages = 0;
  let continueToken: string | undefined;
  const unitsBefore = bench.stack.capacity().readUnits;
  const start = performance.now();
  do {
    const separator = path.includes('?') ? '&' : '?';
    const url = `${bench.stack.url}${path}${separator}limit=${CHUNK}${continueToken ? `&continue=${encodeURIComponent(continueToken)}` : ''}`;
    const response = await fetch(url, { headers: { accept: TABLE_ACCEPT } });
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    const table = (await response.json()) as { kind: string; rows: { object: { metadata: { uid: string } } }[]; metadata: { continue?: string } };
    if (table.kind !== 'Table') throw new Error(`GET ${path} answered a ${table.kind}, not a Table`);
    uids.push(...table.rows.map((row) => row.object.metadata.uid));
    continueToken = table.metadata.continue || undefined;
    pages++;
  } while (continueToken !== undefined);
  return { uids, pages, seconds: (performance.now() - start) / 1000, readUnits: bench.stack.capacity().readUnits - unitsBefore };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const numberArg = (name: string) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : undefined);
  const figures = await runKubeListBench({ pods: numberArg('--pods') ?? 10_000, jobs: numberArg('--jobs') ?? 10_000, clusters: numberArg('--clusters') ?? 20 });
  console.log(args.includes('--json') ? JSON.stringify(figures) : figures);
}
