import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { JOB_TRACKING_FINALIZER, JOBFOLD_CONTROLLER_NAME } from '../../shared/k8s/job-controller.ts';
import { createPod, removePodFinalizer, terminatePod, updateJobStatus } from './commands.ts';
import { DLQ, eventually, QUEUE, startHarness, templateHashSeenByService, type Harness } from './harness.ts';
import { aChildJobManifest, aJobSet, asStored, aStoredJobSet, createJob, deleteJob, deleteJobSet, setJobSuspend } from './jobset-commands.ts';
import { aJob, aPod } from './objects.ts';

// Issue 14: the forwarder's RBAC (deploy/forwarder/rbac.yaml) is split in two. What the watcher
// needs (observe) cannot delete, create or patch anything; what the command applier adds (act)
// is exactly what the commands do, bound only per namespace. The real forwarder runs every
// command against the fake API server and each request it makes is checked against the rules
// as the apiserver's RBAC authorizer would.

type Rule = { apiGroups: string[]; resources: string[]; verbs: string[] };
type Manifest = { kind: string; metadata: { name: string; namespace?: string }; rules?: Rule[]; roleRef?: { kind: string; name: string }; subjects?: { kind: string; name: string; namespace: string }[] };
type Access = { verb: string; group: string; resource: string; namespace: string | undefined };

const read = (file: string) => parseAllDocuments(readFileSync(new URL(`../../deploy/forwarder/${file}`, import.meta.url), 'utf8')).map((d) => d.toJS() as Manifest).filter(Boolean);
const rbac = read('rbac.yaml');
const role = (name: string) => rbac.find((m) => m.kind === 'ClusterRole' && m.metadata.name === name)?.rules ?? [];
const bindingsOf = (name: string) => rbac.filter((m) => m.kind.endsWith('Binding') && m.roleRef?.name === name);
const OBSERVE = role('jobfold-forwarder-observe');
const ACT = role('jobfold-forwarder-act');

/** RBAC's rule match (no wildcards are allowed here, see below, so none are honoured). */
const allows = (rules: Rule[], a: Omit<Access, 'namespace'>) =>
  rules.some((r) => r.apiGroups.includes(a.group) && r.resources.includes(a.resource) && r.verbs.includes(a.verb));

/** The request attributes the apiserver derives from a request's method and path. */
function accessOf(method: string, path: string, query: URLSearchParams): Access {
  const match = /^\/(?:api\/v1|apis\/(batch|jobset\.x-k8s\.io)\/v1(?:alpha2)?)(?:\/namespaces\/([^/]+))?\/(pods|jobs|jobsets)(?:\/([^/]+)(?:\/([^/]+))?)?$/.exec(path);
  if (!match) throw new Error(`unexpected API path ${path}`);
  const [, group = '', namespace, plural, name, sub] = match;
  const verb = { POST: 'create', DELETE: name ? 'delete' : 'deletecollection', PATCH: 'patch', PUT: 'update' }[method]
    ?? (name ? 'get' : query.get('watch') === 'true' ? 'watch' : 'list');
  return { verb, group, resource: sub ? `${plural}/${sub}` : `${plural}`, namespace };
}

let h: Harness;
let watcher: Access[] = [];
let commands: Access[] = [];

beforeAll(async () => {
  h = await startHarness();
  await eventually(() => expect(h.kube.watchCount('pods') + h.kube.watchCount('jobs')).toBe(2));
  watcher = h.kube.requests.map((r) => accessOf(r.method, r.path, r.query));
  const from = h.kube.requests.length;
  for (const step of everyCommand) {
    h.sqs.send(QUEUE, await step());
    await eventually(() => expect(h.sqs.pending(QUEUE)).toEqual([]), 5_000);
  }
  expect(h.sqs.pending(DLQ)).toEqual([]);
  commands = h.kube.requests.slice(from).map((r) => accessOf(r.method, r.path, r.query));
}, 60_000);
afterAll(async () => {
  await h.close();
});

/** One message of each command type, each set up so that it takes effect. */
const everyCommand: (() => Promise<string>)[] = [
  async () => {
    const job = h.kube.store.create('jobs', aJob({ name: 'plain' }));
    return terminatePod(job, h.kube.store.create('pods', aPod(job, { name: 'plain-a' })));
  },
  async () => {
    const job = h.kube.store.create('jobs', aJob({ name: 'managed', completionMode: 'Indexed', completions: 2, managedBy: JOBFOLD_CONTROLLER_NAME }));
    return createPod(job, 0, await templateHashSeenByService(h.bus, job));
  },
  async () => updateJobStatus(h.kube.store.create('jobs', aJob({ name: 'status', managedBy: JOBFOLD_CONTROLLER_NAME }))),
  async () => {
    const job = h.kube.store.create('jobs', aJob({ name: 'tracked', managedBy: JOBFOLD_CONTROLLER_NAME }));
    const pod = h.kube.store.create('pods', aPod(job, { name: 'tracked-a', phase: 'Succeeded', tracked: true }));
    h.kube.store.update('pods', 'default', 'tracked-a', (p) => void (p.metadata.finalizers = [JOB_TRACKING_FINALIZER]));
    return removePodFinalizer(job, pod);
  },
  async () => {
    const jobSet = aJobSet('create');
    return createJob(jobSet, aChildJobManifest({ jobSet }));
  },
  async () => {
    const jobSet = aJobSet('delete');
    const job = h.kube.store.create('jobs', asStored(aChildJobManifest({ jobSet })));
    return deleteJob(jobSet, job.metadata.name);
  },
  async () => {
    const jobSet = aJobSet('suspend');
    h.kube.store.create('jobs', asStored(aChildJobManifest({ jobSet })));
    return setJobSuspend(jobSet, 'suspend-workers-0', 'SuspendJob');
  },
  async () => {
    const jobSet = aJobSet('resume');
    h.kube.store.create('jobs', asStored(aChildJobManifest({ jobSet, suspend: true })));
    return setJobSuspend(jobSet, 'resume-workers-0', 'ResumeJob');
  },
  async () => {
    const jobSet = aJobSet('expired');
    h.kube.store.create('jobsets', aStoredJobSet(jobSet));
    return deleteJobSet(jobSet);
  },
];


const mutating = (a: Access) => !['get', 'list', 'watch'].includes(a.verb);
const key = (a: Omit<Access, 'namespace'>) => `${a.verb} ${a.group || 'core'}/${a.resource}`;

describe('The watcher\'s role (jobfold-forwarder-observe)', () => {
  it('allows every request the watcher makes, all of them reads', () => {
    expect(watcher.length).toBeGreaterThan(0);
    for (const access of watcher) {
      expect(mutating(access), key(access)).toBe(false);
      expect(allows(OBSERVE, access), key(access)).toBe(true);
    }
  });

  it.each(['create', 'delete', 'deletecollection', 'patch', 'update'])('cannot %s pods, Jobs or JobSets', (verb) => {
    for (const [group, resource] of [['', 'pods'], ['batch', 'jobs'], ['batch', 'jobs/status'], ['', 'pods/eviction'], ['jobset.x-k8s.io', 'jobsets']] as const) {
      expect(allows(OBSERVE, { verb, group, resource }), `${verb} ${resource}`).toBe(false);
    }
  });

  it('is bound cluster-wide to the forwarder\'s service account only', () => {
    expect(bindingsOf('jobfold-forwarder-observe').map((b) => [b.kind, b.subjects])).toEqual([
      ['ClusterRoleBinding', [{ kind: 'ServiceAccount', name: 'jobfold-forwarder', namespace: 'jobfold' }]],
    ]);
  });
});

describe('The command applier\'s role (jobfold-forwarder-act)', () => {
  it('allows every write the commands make, and their reads are the observe role\'s', () => {
    expect(commands.filter(mutating).length).toBeGreaterThanOrEqual(everyCommand.length);
    for (const access of commands) {
      expect(allows(mutating(access) ? ACT : OBSERVE, access), key(access)).toBe(true);
    }
  });

  it('grants nothing the commands do not use', () => {
    const used = new Set(commands.filter(mutating).map(key));
    const granted = ACT.flatMap((r) => r.apiGroups.flatMap((group) => r.resources.flatMap((resource) => r.verbs.map((verb) => key({ verb, group, resource })))));
    expect(new Set(granted)).toEqual(used);
  });

  it('acts only in a namespace it is bound in, by a RoleBinding, never cluster-wide', () => {
    const bindings = bindingsOf('jobfold-forwarder-act');
    expect(bindings.map((b) => b.kind)).toEqual(bindings.map(() => 'RoleBinding'));
    const namespaces = new Set(bindings.map((b) => b.metadata.namespace));
    for (const access of commands.filter(mutating)) expect(namespaces.has(access.namespace), key(access)).toBe(true);
    for (const b of bindings) expect(b.subjects).toEqual([{ kind: 'ServiceAccount', name: 'jobfold-forwarder', namespace: 'jobfold' }]);
  });
});

describe('Every rule of the forwarder', () => {
  it('names its groups, resources and verbs: no wildcards, no other resources', () => {
    for (const rule of [...OBSERVE, ...ACT]) {
      for (const field of [rule.apiGroups, rule.resources, rule.verbs]) expect(field).not.toContain('*');
      for (const resource of rule.resources) expect(['pods', 'jobs', 'jobs/status', 'jobsets']).toContain(resource);
    }
    expect(rbac.filter((m) => m.kind === 'ClusterRole' || m.kind === 'Role').map((m) => m.metadata.name).sort()).toEqual(['jobfold-forwarder-act', 'jobfold-forwarder-observe']);
  });

  it('belongs to the service account the Deployment runs as', () => {
    const [account] = read('serviceaccount.yaml');
    expect(account?.metadata).toMatchObject({ name: 'jobfold-forwarder', namespace: 'jobfold' });
    expect(readFileSync(new URL('../../deploy/forwarder/deployment.yaml', import.meta.url), 'utf8')).toMatch(/serviceAccountName: jobfold-forwarder\n/);
  });
});
