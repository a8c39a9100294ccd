import { afterEach, describe, expect, it, vi } from 'vitest';
import { credentialsTreatedAsExpired, credentialsWillNeedRefresh, defaultProvider } from '../../cdk/bundling/lambda-credentials.ts';

// The bundles' credential chain (cdk/bundling/lambda-credentials.ts): the environment Lambda sets.
describe("the Lambda bundles' credential chain", () => {
  afterEach(() => vi.unstubAllEnvs());

  it('given the execution role in the environment, when credentials are asked for, then they are those', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'ASIAEXAMPLE');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'secret');
    vi.stubEnv('AWS_SESSION_TOKEN', 'token');
    const credentials = await defaultProvider()();
    expect(credentials).toMatchObject({ accessKeyId: 'ASIAEXAMPLE', secretAccessKey: 'secret', sessionToken: 'token' });
  });

  it('given no credentials in the environment, when credentials are asked for, then it fails naming the variables', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', '');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', '');
    await expect(defaultProvider()()).rejects.toThrow(/environment/i);
  });

  it('treats credentials as the SDK chain does: refreshed when they expire, expired 5 minutes early', () => {
    expect(credentialsWillNeedRefresh(undefined)).toBe(false);
    expect(credentialsWillNeedRefresh({ expiration: new Date() })).toBe(true);
    expect(credentialsTreatedAsExpired({ expiration: new Date(Date.now() + 60_000) })).toBe(true);
    expect(credentialsTreatedAsExpired({ expiration: new Date(Date.now() + 3_600_000) })).toBe(false);
  });
});
