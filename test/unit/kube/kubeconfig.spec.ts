import { describe, expect, it } from 'vitest';
import { contextsFor, defaultKubeconfig, merge } from '../../../cli/kube/kubeconfig-command.ts';

// `jobfold kubeconfig` (cli/kube/kubeconfig-command.ts): the contexts it writes for the local
// stack and for a deployed API, and how they go into a kubeconfig that already has others.

describe('jobfold kubeconfig', () => {
  it('writes one context per cluster under /k8s/clusters/<cluster>, without credentials for the local stack', () => {
    const config = contextsFor(new URL('http://127.0.0.1:3000'), ['prod-eu-1', 'dev']);

    expect(config.clusters).toEqual([
      { name: 'jobfold-prod-eu-1', cluster: { server: 'http://127.0.0.1:3000/k8s/clusters/prod-eu-1', 'insecure-skip-tls-verify': true } },
      { name: 'jobfold-dev', cluster: { server: 'http://127.0.0.1:3000/k8s/clusters/dev', 'insecure-skip-tls-verify': true } },
    ]);
    expect(config.contexts).toEqual([
      { name: 'jobfold-prod-eu-1', context: { cluster: 'jobfold-prod-eu-1', user: 'jobfold-local' } },
      { name: 'jobfold-dev', context: { cluster: 'jobfold-dev', user: 'jobfold-local' } },
    ]);
    expect(config.users).toEqual([{ name: 'jobfold-local', user: {} }]);
    expect(config['current-context']).toBe('jobfold-prod-eu-1');
  });

  it('gives a deployed API\'s contexts the `jobfold token` exec plugin, and verifies its TLS', () => {
    const config = contextsFor(new URL('https://abc123.execute-api.eu-west-1.amazonaws.com/'), ['prod-eu-1']);

    expect(config.clusters).toEqual([{ name: 'jobfold-prod-eu-1', cluster: { server: 'https://abc123.execute-api.eu-west-1.amazonaws.com/k8s/clusters/prod-eu-1' } }]);
    const [user] = config.users ?? [];
    expect(user?.name).toBe('jobfold-abc123.execute-api.eu-west-1.amazonaws.com');
    expect(user?.user).toMatchObject({
      exec: {
        apiVersion: 'client.authentication.k8s.io/v1', command: process.execPath, interactiveMode: 'Never',
        args: [expect.stringMatching(/cli\/jobfold\.ts$/), 'token', '--endpoint', 'https://abc123.execute-api.eu-west-1.amazonaws.com'],
      },
    });
  });

  it('escapes a cluster id in the server path', () => {
    expect(contextsFor(new URL('http://127.0.0.1:3000'), ['a b'])?.clusters?.[0]?.cluster).toMatchObject({ server: 'http://127.0.0.1:3000/k8s/clusters/a%20b' });
  });

  it('merges into a kubeconfig: its own entries replaced, everything else and the current context kept', () => {
    const existing = {
      apiVersion: 'v1', kind: 'Config', preferences: {},
      clusters: [{ name: 'eks-prod', cluster: { server: 'https://eks.example' } }, { name: 'jobfold-dev', cluster: { server: 'http://old' } }],
      contexts: [{ name: 'eks-prod', context: { cluster: 'eks-prod', user: 'eks' } }, { name: 'jobfold-dev', context: { cluster: 'jobfold-dev', user: 'jobfold-local' } }],
      users: [{ name: 'eks', user: { token: 'secret' } }],
      'current-context': 'eks-prod',
    };
    const merged = merge(existing, contextsFor(new URL('http://127.0.0.1:3000'), ['dev']));

    expect(merged.clusters?.map((c) => c.name)).toEqual(['eks-prod', 'jobfold-dev']);
    expect(merged.clusters?.[1]?.cluster).toMatchObject({ server: 'http://127.0.0.1:3000/k8s/clusters/dev' });
    expect(merged.contexts?.map((c) => c.name)).toEqual(['eks-prod', 'jobfold-dev']);
    expect(merged.users).toEqual([{ name: 'eks', user: { token: 'secret' } }, { name: 'jobfold-local', user: {} }]);
    expect(merged['current-context']).toBe('eks-prod');
    expect(merged.preferences).toEqual({});
    expect(merge({}, contextsFor(new URL('http://127.0.0.1:3000'), ['dev']))['current-context']).toBe('jobfold-dev');
  });

  it('writes where kubectl reads: $KUBECONFIG\'s first file, else ~/.kube/config', () => {
    expect(defaultKubeconfig({ KUBECONFIG: '/a/config:/b/config' })).toBe('/a/config');
    expect(defaultKubeconfig({ KUBECONFIG: '::/b/config' })).toBe('/b/config');
    expect(defaultKubeconfig({})).toMatch(/\/\.kube\/config$/);
  });
});
