import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { backoffPerIndexStories } from './backoff-per-index.ts';
import { basicStories } from './basics.ts';
import { delayTerminalStories } from './delay-terminal.ts';
import { elasticAndSuspendStories } from './elastic-and-suspend.ts';
import { managedByStories } from './managed-by.ts';
import { replacementPolicyStories } from './replacement-policy.ts';
import { podFailurePolicyStories } from './pod-failure-policy.ts';
import { successPolicyStories } from './success-policy.ts';
import type { Story } from './story.ts';

// Writes the scenarios of ../ (one JSON file per upstream case). Run after editing a story:
//   node test/conformance/k8s-job-integration/build/main.ts

const stories: Story[] = [
  ...basicStories(),
  ...podFailurePolicyStories(),
  ...successPolicyStories(),
  ...backoffPerIndexStories(),
  ...delayTerminalStories(),
  ...managedByStories(),
  ...replacementPolicyStories(),
  ...elasticAndSuspendStories(),
];

const dir = fileURLToPath(new URL('../', import.meta.url));
mkdirSync(dir, { recursive: true });
for (const name of readdirSync(dir)) if (name.endsWith('.json')) rmSync(`${dir}${name}`);
const seen = new Set<string>();
for (const story of stories) {
  const scenario = story.scenario();
  const id = scenario['id'] as string;
  if (seen.has(id)) throw new Error(`duplicate scenario id ${id}`);
  seen.add(id);
  writeFileSync(`${dir}${id}.json`, `${JSON.stringify(scenario, null, 2)}\n`);
}
console.log(`${stories.length} scenarios written to ${dir}`);
