import { describe, expect, it } from 'vitest';
import { parseBytes, readConfig } from '../../forwarder/config.ts';
import { DEFAULT_TUNING, packLimits } from '../../forwarder/forwarder.ts';
import { DEFAULT_PACK_LIMITS } from '../../forwarder/send/pack.ts';
import { Metrics } from '../../forwarder/metrics.ts';
import { startMetricsServer } from '../../forwarder/metrics-server.ts';

describe('Configuration', () => {
  it('reads flags, and falls back to environment variables and defaults', () => {
    const result = readConfig(['--cluster-id', 'eu-1', '--namespace', 'batch'], {
      JOBFOLD_CLUSTER_ID: 'ignored',
      JOBFOLD_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/jobfold-eu-1',
      AWS_REGION: 'eu-west-1',
    });

    expect(result).toEqual({
      kind: 'config',
      config: {
        clusterId: 'eu-1',
        namespace: 'batch',
        queueUrl: 'https://sqs.eu-west-1.amazonaws.com/123456789012/jobfold-eu-1',
        region: 'eu-west-1',
        eventBusName: 'default',
        spoolDir: '.jobfold-forwarder',
        spoolMaxBytes: 256 * 1024 * 1024,
        maxReceives: 5,
        packWindowMs: 50,
        logLevel: 'info',
      },
    });
  });

  it('needs only a cluster id and endpoint overrides for the local stack', () => {
    const result = readConfig(['--cluster-id', 'local', '--events-endpoint', 'http://127.0.0.1:3000/events', '--kube-server', 'http://127.0.0.1:8001'], {});
    expect(result).toMatchObject({ kind: 'config', config: { eventsEndpoint: 'http://127.0.0.1:3000/events', kubeServer: 'http://127.0.0.1:8001' } });
  });

  it('names the flag and the variable of every invalid setting', () => {
    const result = readConfig(['--metrics-port', 'ninety'], {});
    expect(result.kind).toBe('error');
    if (result.kind !== 'error') return;
    expect(result.message).toContain('--cluster-id (JOBFOLD_CLUSTER_ID)');
    expect(result.message).toContain('--metrics-port (JOBFOLD_METRICS_PORT)');
  });

  it('given --pack-window-ms or JOBFOLD_PACK_WINDOW_MS, then the packer waits that long (0: every event alone), the flag winning', () => {
    const windowOf = (argv: string[], env: Record<string, string>) => {
      const result = readConfig(['--cluster-id', 'c1', ...argv], env);
      if (result.kind !== 'config') throw new Error(JSON.stringify(result));
      return packLimits(result.config, DEFAULT_TUNING);
    };
    expect(windowOf([], {})).toEqual(DEFAULT_PACK_LIMITS);
    expect(windowOf([], { JOBFOLD_PACK_WINDOW_MS: '0' })).toEqual({ ...DEFAULT_PACK_LIMITS, windowMs: 0 });
    expect(windowOf(['--pack-window-ms', '250'], { JOBFOLD_PACK_WINDOW_MS: '0' })).toEqual({ ...DEFAULT_PACK_LIMITS, windowMs: 250 });
  });

  it.each(['-1', '1.5', 'fast', '10001'])('given --pack-window-ms %s, then it is refused naming the flag and the variable', (value) => {
    const result = readConfig(['--cluster-id', 'c1', `--pack-window-ms=${value}`], {});
    expect(result.kind).toBe('error');
    if (result.kind !== 'error') return;
    expect(result.message).toContain('--pack-window-ms (JOBFOLD_PACK_WINDOW_MS)');
  });

  it('prints help listing every flag with its variable', () => {
    const result = readConfig(['--help'], {});
    expect(result.kind).toBe('help');
    if (result.kind !== 'help') return;
    for (const flag of ['--cluster-id', '--event-bus-name', '--queue-url', '--dlq-url', '--spool-dir', '--spool-max-bytes', '--events-endpoint', '--sqs-endpoint', '--kube-server', '--kubeconfig', '--pack-window-ms', '--metrics-port']) {
      expect(result.text).toContain(flag);
    }
  });

  it.each([
    ['1048576', 1048576],
    ['512Ki', 512 * 1024],
    ['256Mi', 256 * 1024 * 1024],
    ['2Gi', 2 * 1024 ** 3],
  ])('reads %s as %i bytes', (text, bytes) => {
    expect(parseBytes(text)).toBe(bytes);
  });
});

describe('Metrics', () => {
  it('serves counters and gauges in the Prometheus text format on /metrics', async () => {
    const metrics = new Metrics();
    metrics.inc('forwarder_events_sent_total', {}, 3);
    metrics.inc('forwarder_commands_total', { type: 'TerminatePod', outcome: 'done' });
    metrics.set('forwarder_spool_bytes', 42);
    const server = await startMetricsServer(metrics, 0, '127.0.0.1');

    const response = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    const text = await response.text();
    await server.close();

    expect(response.headers.get('content-type')).toContain('text/plain');
    expect(text).toContain('# TYPE forwarder_events_sent_total counter\nforwarder_events_sent_total 3');
    expect(text).toContain('forwarder_commands_total{outcome="done",type="TerminatePod"} 1');
    expect(text).toContain('# TYPE forwarder_spool_bytes gauge\nforwarder_spool_bytes 42');
  });
});
