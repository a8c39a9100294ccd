import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// README's "Dependencies, and why each is here" names every package of package.json, and every
// runtime dependency is imported by the code it ships (not only by tests): a package the code
// stopped using is removed, not left in the list with a reason that is no longer true.

const root = new URL('../../../', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** The packages the section's table names: `@scope/a`, `b` in one cell is @scope/a and @scope/b. */
function namedInReadme(): Set<string> {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.split('## Dependencies, and why each is here')[1]?.split('\n## ')[0] ?? '';
  const named = new Set<string>();
  for (const row of section.split('\n').filter((line) => line.startsWith('| `'))) {
    let scope = '';
    for (const [, name] of (row.split(' | ')[0] ?? '').matchAll(/`([^`]+)`/g)) {
      if (name === undefined) continue;
      if (name.startsWith('@')) scope = name.slice(0, name.indexOf('/') + 1);
      named.add(name.startsWith('@') || scope === '' ? name : `${scope}${name}`);
    }
  }
  return named;
}

const SHIPPED = ['cdk', 'cli', 'console/src', 'forwarder', 'functions', 'local', 'shared'];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx|mjs)$/.test(name) ? [path] : [];
  });
}

describe('README lists every dependency, and why', () => {
  const named = namedInReadme();

  it.each(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }))('names %s', (name) => {
    expect(named).toContain(name);
  });

  it('names no package that package.json does not hold', () => {
    const held = new Set(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }));
    expect([...named].filter((name) => !held.has(name))).toEqual([]);
  });

  const code = SHIPPED.flatMap((dir) => sources(join(root, dir))).map((path) => readFileSync(path, 'utf8')).join('\n');

  it.each(Object.keys(pkg.dependencies))('imports the runtime dependency %s outside the tests', (name) => {
    expect(code).toMatch(new RegExp(`(from |import\\()'${name}(/[^']*)?'`));
  });
});
