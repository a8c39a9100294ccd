import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, Duration, Stack } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { ServiceFunction } from '../../cdk/constructs/service-function.ts';

// The one test that runs esbuild: the other specs skip bundling (aws:cdk:bundling-stacks = []).
describe('bundling a handler with the local esbuild', () => {
  const app = new App({ builtinCloudFormationValidation: false });
  new ServiceFunction(new Stack(app, 'Bundled'), 'Writer', {
    entry: 'writer', description: 'jobfold writer: bundled for the test', timeout: Duration.seconds(30),
  });
  const assembly = app.synth();
  const assets = readdirSync(assembly.directory).filter((name) => name.startsWith('asset.'));

  it('produces one asset with an ESM bundle and its source map', () => {
    expect(assets).toHaveLength(1);
    const dir = join(assembly.directory, assets[0]!);
    expect(readdirSync(dir).sort()).toEqual(['index.mjs', 'index.mjs.map']);
  });

  it('gives the bundle a require() through createRequire and leaves no SDK import outside it', () => {
    const code = readFileSync(join(assembly.directory, assets[0]!, 'index.mjs'), 'utf8');
    expect(code.startsWith("import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);")).toBe(true);
    expect(code).not.toMatch(/from\s*["']@aws-sdk\//);
  });

  it('takes node:http and node:https as CommonJS values, not ESM imports (whose facade loads undici at every cold start)', () => {
    const code = readFileSync(join(assembly.directory, assets[0]!, 'index.mjs'), 'utf8');
    expect(code).not.toMatch(/from\s*["'](node:)?https?["']/);
    expect(code).not.toMatch(/import\(\s*["'](node:)?https?["']\s*\)/);
  });

  it("takes the SDK's credentials from the environment Lambda sets, without the default chain's other links", () => {
    const code = readFileSync(join(assembly.directory, assets[0]!, 'index.mjs'), 'utf8');
    expect(code).toContain('AWS_SECRET_ACCESS_KEY');
    expect(code).not.toContain('defaultProvider::fromSSO');
    expect(code).not.toMatch(/from\s*["'](node:)?child_process["']/);
  });

  it('loads in a plain Node process and exports the handler Lambda calls', () => {
    const file = join(assembly.directory, assets[0]!, 'index.mjs');
    // A fresh process, as Lambda loads it: no vitest transform, no repository node_modules next to it.
    const loaded = spawnSync(process.execPath, ['--input-type=module', '-e',
      `const m = await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(typeof m.handler);`], {
      encoding: 'utf8', cwd: assembly.directory, env: { PATH: process.env['PATH'] ?? '', AWS_REGION: 'eu-west-1' },
    });
    expect(loaded.stderr).toBe('');
    expect(loaded.stdout.trim()).toBe('function');
  });
});
