import { readConfig } from './config.ts';
import { createLogger } from './log.ts';
import { startMetricsServer } from './metrics-server.ts';
import { Metrics } from './metrics.ts';

/**
 * The forwarder's entry point: `node forwarder/main.ts [flags]` (see --help). Runs until
 * SIGTERM or SIGINT, then stops watching and applying commands, spools whatever was not sent
 * yet and exits 0. Exits 2 on a configuration error, 1 when it cannot start.
 */
async function main(): Promise<number> {
  const result = readConfig(process.argv.slice(2), process.env);
  if (result.kind === 'help') {
    process.stdout.write(`${result.text}\n`);
    return 0;
  }
  if (result.kind === 'error') {
    process.stderr.write(`${result.message}\n`);
    return 2;
  }
  const { config } = result;
  // Listen before starting: a SIGTERM during startup must still stop cleanly, not kill.
  const stopSignal = new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  // Loaded only now: the Kubernetes client takes seconds to import, --help should not wait.
  const [{ eventBridgeClientFor, sqsClientFor }, { startForwarder }, { kubeConfigFor }] = await Promise.all([
    import('./aws-clients.ts'),
    import('./forwarder.ts'),
    import('./kube-config.ts'),
  ]);
  const log = createLogger({ level: config.logLevel });
  const metrics = new Metrics();
  const metricsServer = config.metricsPort === undefined ? undefined : await startMetricsServer(metrics, config.metricsPort);
  const forwarder = await startForwarder({
    config,
    kubeConfig: kubeConfigFor(config),
    eventBridge: eventBridgeClientFor(config, process.env),
    sqs: config.queueUrl ? sqsClientFor(config, process.env) : undefined,
    metrics,
    log,
  });
  if (metricsServer) log.info('metrics served', { port: metricsServer.port, paths: ['/metrics', '/healthz'] });
  const signal = await stopSignal;
  log.info('stopping', { signal });
  await forwarder.stop();
  await metricsServer?.close();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level: 'error', msg: 'forwarder failed', error: String((error as Error)?.stack ?? error) })}\n`);
    process.exit(1);
  },
);
