import { KubeConfig } from '@kubernetes/client-node';
import type { ForwarderConfig } from './config.ts';

/**
 * The API server to talk to: `--kube-server` (a plain URL, no credentials), else the given
 * kubeconfig, else the default chain (KUBECONFIG, ~/.kube/config, in-cluster service account).
 */
export function kubeConfigFor(config: Pick<ForwarderConfig, 'kubeServer' | 'kubeconfig'>): KubeConfig {
  const kubeConfig = new KubeConfig();
  if (config.kubeServer) {
    const server = config.kubeServer.replace(/\/$/, '');
    // The client refuses plain http unless TLS verification is off, which means nothing there.
    const skipTLSVerify = server.startsWith('http:');
    kubeConfig.loadFromClusterAndUser({ name: 'forwarder', server, skipTLSVerify }, { name: 'forwarder' });
  } else if (config.kubeconfig) {
    kubeConfig.loadFromFile(config.kubeconfig);
  } else {
    kubeConfig.loadFromDefault();
  }
  return kubeConfig;
}
