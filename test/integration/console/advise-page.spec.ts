import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { seedAdviceFleet } from '../../../bench/advise-fleet.ts';
import { createLocalClient } from '../../../local/dynamodb-local.ts';
import type { LocalStack } from '../../../local/local-stack.ts';
import { startTestStack } from '../local/local-stack-fixture.ts';
import { consolePage, launchChromium, screenshot } from './browser.ts';
import { buildConsole } from './console-fixture.ts';

// The advice page in Debian's headless Chromium. Given the runs of five CronJobs on DynamoDB
// Local (bench/advise-fleet.ts: an exit code that never succeeds on retry, disruptions, a
// leader/worker Job, runs that hang, a quorum Job a FailJob rule would harm), when a user opens
// Advise, then each family shows its patch to apply first, the harmful proposal lists its
// harmed Jobs linked to their pages, and the selection lives in the URL.

const PATIENT = { timeout: 60_000, interval: 200 };
const RUNS = 10;

let stack: LocalStack;
let browser: Browser;
let page: Page;
let problems: string[];

beforeAll(async () => {
  buildConsole();
  [stack, browser] = await Promise.all([startTestStack(), launchChromium()]);
  await seedAdviceFleet(createLocalClient(stack.dynamoDbEndpoint), stack.tableName, 5 * RUNS, RUNS);
  ({ page, problems } = await consolePage(browser));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const families = () => page.locator('section.family');

describe('the advice page', () => {
  it('is linked from every page, and advises every family of the fleet', async () => {
    await page.goto(`${stack.url}/`);
    await page.getByRole('link', { name: 'Advise' }).click();
    await expect.poll(() => page.evaluate('location.hash'), PATIENT).toBe('#/advise');
    await expect.poll(async () => page.locator('p.summary').count(), PATIENT).toBe(1);
    expect(await page.locator('p.summary').innerText()).toContain(`${5 * RUNS} finished Jobs in 5 families`);
    expect(await families().count()).toBe(5);
    await screenshot(page, 'advise');
    expect(problems).toEqual([]);
  }, 120_000);

  it('shows a family\'s patch to apply first, as YAML, with the kubectl command for its CronJob', async () => {
    const exitCode = families().filter({ hasText: 'cronjob:exit-code-000' });
    const apply = exitCode.locator('.apply');
    expect(await apply.locator('h3').innerText()).toContain('FailJob on exit code 3 (rule ExitCode3)');
    const yaml = await apply.locator('pre.yaml').innerText();
    expect(yaml).toContain('- name: ExitCode3');
    expect(yaml).toContain('action: FailJob');
    expect(await apply.locator('.command').innerText()).toContain('kubectl patch cronjob exit-code-000');
  });

  it('marks the quorum family\'s only proposal as harmful and links each harmed Job', async () => {
    const quorum = families().filter({ hasText: 'cronjob:quorum-004' });
    expect(await quorum.locator('.verdict').innerText()).toContain('every candidate would harm a Job');
    const harmful = quorum.locator('li.proposal.harmful');
    expect(await harmful.locator('.badge').innerText()).toBe(`harms ${RUNS} Jobs`);
    const rows = harmful.locator('table.harm tbody tr');
    expect(await rows.count()).toBe(RUNS);
    expect(await rows.first().innerText()).toContain('a success would fail');
    await rows.first().locator('a').click();
    await expect.poll(() => page.evaluate('location.hash'), PATIENT).toMatch(/^#\/jobs\/cluster-04\/team-4\/quorum-004-\d+\?uid=/);
    expect(problems).toEqual([]);
  });

  it('narrows to one namespace from the form, and keeps it in the URL', async () => {
    await page.goto(`${stack.url}/#/advise`);
    await page.getByLabel('Namespace').fill('team-2');
    await page.getByRole('button', { name: 'Advise' }).click();
    await expect.poll(() => page.evaluate('location.hash'), PATIENT).toBe('#/advise?namespace=team-2');
    await expect.poll(async () => page.locator('p.summary').innerText(), PATIENT).toContain(`${RUNS} finished Jobs in 1 family`);
    expect(await families().first().locator('h2').innerText()).toContain('cronjob:leader-002');
    expect(problems).toEqual([]);
  }, 120_000);
});
