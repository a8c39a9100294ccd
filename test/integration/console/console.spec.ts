import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { consolePage, launchChromium, screenshot } from './browser.ts';
import {
  BIG,
  BIG_CLUSTER,
  BIG_JOB,
  HUGE_JOB,
  LONG_JOB,
  OPS_CLUSTER,
  REFUSED_JOB,
  STALLED_ERROR,
  STALLED_JOB,
  buildConsole,
  startConsoleServer,
  type ConsoleServer,
} from './console-fixture.ts';

// The web console in Debian's headless Chromium. Given the sample fleet of `npm start`, the
// seed-002 JobSet story and a 10,000-index Job, served as the local stack serves them (see
// console-fixture.ts), when a user opens the pages, then the fleet lists the sample fleet, a Job
// page shows its why with the evidence, the index grid draws 10,000 indexes on one canvas, the
// fleet table works from the keyboard, and names are never markup. Each page is written to
// test-output/screenshots/.

/** A busy 2-core machine can take seconds to render the first page: wait up to 10 s. */
const PATIENT = { timeout: 10_000, interval: 100 };
const SAMPLE_JOBS = ['leader-only', 'leader-or-workers', 'train-exit2', 'shard-scan', 'nightly-report'];

let server: ConsoleServer;
let browser: Browser;
let page: Page;
let problems: string[];

beforeAll(async () => {
  buildConsole();
  [server, browser] = await Promise.all([startConsoleServer(), launchChromium()]);
  ({ page, problems } = await consolePage(browser));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const rows = () => page.locator('table.fleet tbody tr');

describe('the fleet page', () => {
  it('lists the sample fleet and the JobSet, with counts by reason', async () => {
    await page.goto(`${server.url}/`);
    await expect.poll(async () => rows().count(), PATIENT).toBeGreaterThanOrEqual(SAMPLE_JOBS.length + 1);
    const text = await page.locator('table.fleet').innerText();
    for (const name of [...SAMPLE_JOBS, 'restart-job-example']) expect(text).toContain(name);
    expect(text).toContain('JobSet');
    const counts = await page.locator('section.counts').innerText();
    expect(counts).toContain('PodFailurePolicy_ExitCode2');
    expect(counts).toContain('FailedIndexes');
    expect(counts).toContain('DeadlineExceeded');
    await screenshot(page, 'fleet');
    expect(problems).toEqual([]);
  });

  it('filters by state from its labelled select, and says which page it shows', async () => {
    await page.getByLabel('State').selectOption('Failed');
    await expect.poll(() => page.evaluate('location.hash'), PATIENT).toBe('#/?state=Failed');
    await expect.poll(async () => page.locator('table.fleet').innerText(), PATIENT).not.toContain('leader-only');
    const text = await page.locator('table.fleet').innerText();
    expect(text).toContain('train-exit2');
    expect(await page.locator('nav.pager').innerText()).toMatch(/1–\d+ of \d+/);
  });

  it('moves between rows with the arrow keys, Home and End, and opens one with Enter', async () => {
    await page.goto(`${server.url}/#/`);
    // The Failed-filtered rows of the test before can still be on screen until the whole fleet
    // loads: wait for a Job the filter hid, so the rows no longer change under the keys.
    await expect.poll(async () => page.locator('table.fleet').innerText(), PATIENT).toContain('leader-only');
    await expect.poll(async () => rows().count(), PATIENT).toBeGreaterThanOrEqual(6);
    const count = await rows().count();
    const focused = () => page.evaluate<string>("document.activeElement?.getAttribute('aria-label') ?? ''");
    const label = (i: number) => rows().nth(i).getAttribute('aria-label');
    await rows().first().focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe(await label(2));
    await page.keyboard.press('End');
    expect(await focused()).toBe(await label(count - 1));
    await page.keyboard.press('Home');
    expect(await focused()).toBe(await label(0));
    // Only the focused row is in the tab order (a roving tabindex).
    expect(await page.locator('table.fleet tbody tr[tabindex="0"]').count()).toBe(1);
    await page.keyboard.press('ArrowDown');
    const opened = (await label(1)) ?? '';
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate('location.hash'), PATIENT).toMatch(/^#\/jobs?(sets)?\//);
    await expect.poll(async () => page.locator('h1').innerText(), PATIENT).toContain(opened.split(' ')[1]!.split(' ')[0]!);
  });

  it('shows a filter value with control characters escaped, never as markup', async () => {
    await page.goto(`${server.url}/#/?reason=${encodeURIComponent('<img src=x onerror=alert(1)>\u0007\u202e')}`);
    await expect.poll(async () => page.getByLabel('Reason').locator('option:checked').innerText(), PATIENT).toContain('\\u0007');
    expect(await page.getByLabel('Reason').locator('option:checked').innerText()).toContain('<img src=x onerror=alert(1)>');
    expect(await page.locator('main img').count()).toBe(0);
  });
});

describe('Jobs that need attention', () => {
  it('marks a stalled Job and a refused update in the fleet, with the error, and filters on them', async () => {
    await page.goto(`${server.url}/#/?cluster=${OPS_CLUSTER}`);
    const attention = page.locator('section.attention');
    await expect.poll(async () => attention.innerText(), PATIENT).toContain('1 stalled');
    expect(await attention.innerText()).toContain('1 with a refused update');
    const row = (name: string) => rows().filter({ hasText: name });
    expect(await row(STALLED_JOB).innerText()).toContain('Stalled');
    expect(await row(STALLED_JOB).locator('.problems').innerText()).toContain(STALLED_ERROR);
    expect(await row(STALLED_JOB).getAttribute('aria-label')).toContain('stalled');
    expect(await row(REFUSED_JOB).locator('.problems').innerText()).toMatch(/Update refused: .*field is immutable/);
    await screenshot(page, 'fleet-attention');
    await attention.getByRole('button', { name: /stalled/ }).click();
    await expect.poll(() => page.evaluate('location.hash'), PATIENT).toContain('attention=stalled');
    await expect.poll(async () => rows().count(), PATIENT).toBe(1);
    expect(await rows().first().innerText()).toContain(STALLED_JOB);
    await page.getByLabel(/^Attention/).selectOption('refusedUpdate');
    await expect.poll(async () => page.locator('table.fleet').innerText(), PATIENT).not.toContain(STALLED_JOB);
    expect(await rows().first().innerText()).toContain(REFUSED_JOB);
    expect(problems).toEqual([]);
  });

  it('says on the Job page that the Job is stalled, since when, and the error', async () => {
    await page.goto(`${server.url}/#/jobs/${OPS_CLUSTER}/default/${STALLED_JOB}`);
    const stalled = page.locator('.attention-panel .stalled');
    await expect.poll(async () => stalled.innerText(), PATIENT).toContain('Stalled since 2026-01-01 00:00:00Z');
    expect(await stalled.innerText()).toContain(STALLED_ERROR);
    await screenshot(page, 'job-stalled');
    expect(problems).toEqual([]);
  });

  it('shows the refused update with the field error, and the spec it still folds under', async () => {
    await page.goto(`${server.url}/#/jobs/${OPS_CLUSTER}/default/${REFUSED_JOB}`);
    const refused = page.locator('.attention-panel .refused');
    await expect.poll(async () => refused.innerText(), PATIENT).toContain('Update refused');
    const text = await refused.innerText();
    expect(text).toContain('resized/indexed');
    expect(text).toMatch(/spec\.completionMode: .*field is immutable \(FieldValueInvalid\)/);
    expect(await page.locator('#describe').innerText()).toMatch(/Completion Mode:\s*NonIndexed/);
    expect(await page.locator('.attention-panel .stalled').count()).toBe(0);
    await screenshot(page, 'job-refused-update');
    expect(problems).toEqual([]);
  });
});

describe('the Job page', () => {
  it('shows the why, and opens the event that tipped it in the evidence panel', async () => {
    await page.goto(`${server.url}/#/jobs/prod-us-1/batch/train-exit2`);
    const why = page.locator('#why');
    await expect.poll(async () => why.innerText(), PATIENT).toContain('PodFailurePolicy_ExitCode2');
    expect(await page.locator('p.summary').innerText()).toContain('failed');
    expect(await page.locator('#describe').innerText()).toMatch(/Pods Statuses:\s*\d+ Active \(\d+ Ready\) \/ \d+ Succeeded \/ \d+ Failed/);
    expect(await page.locator('#timeline svg').count()).toBe(1);
    await why.getByRole('link', { name: /PodObserved #\d+/ }).first().click();
    await expect.poll(async () => page.locator('#evidence').innerText(), PATIENT).toMatch(/Entry #\d+[\s\S]*PodObserved/);
    expect(await page.locator('#evidence pre').innerText()).toContain('"exitCode": 2');
    await screenshot(page, 'job');
    expect(problems).toEqual([]);
  });

  it('says a command was queued, not delivered, and which of its pods the cluster later reported deleted', async () => {
    await page.goto(`${server.url}/#/jobs/prod-eu-1/ml-training/leader-or-workers`);
    const commands = page.locator('#commands');
    await expect.poll(async () => commands.innerText(), PATIENT).toContain('TerminatePod');
    const row = commands.locator('tbody tr').filter({ hasText: 'TerminatePod' }).first();
    const delivery = await row.locator('td.delivery').innerText();
    expect(delivery).toContain('queued to send');
    expect(delivery).not.toMatch(/\bsent to\b|delivered|applied/);
    expect(delivery).toMatch(/deletion observed: (\d+) of \1 \((latest )?#\d+\)/);
    await row.locator('td.delivery').getByRole('link').click();
    await expect.poll(async () => page.locator('#evidence').innerText(), PATIENT).toMatch(/Entry #\d+[\s\S]*PodDeleted/);
    await commands.scrollIntoViewIfNeeded();
    await screenshot(page, 'job-commands');
    expect(problems).toEqual([]);
  });

  it('shows the status at an earlier point of the history from the slider', async () => {
    const slider = page.getByLabel('Log position');
    await slider.focus();
    await page.keyboard.press('Home');
    await expect.poll(async () => page.locator('#describe h2').innerText(), PATIENT).toBe('Status at #0');
    await expect.poll(async () => page.locator('#describe').innerText(), PATIENT)
      .toMatch(/Pods Statuses:\s*0 Active \(0 Ready\) \/ 0 Succeeded \/ 0 Failed/);
    await page.getByRole('button', { name: 'Follow the head' }).click();
    await expect.poll(async () => page.locator('#describe h2').innerText(), PATIENT).toBe('Status');
  });
});

describe('the Job page of a log longer than the view\'s window', () => {
  it('says where its commands start, and lists the earlier ones on demand, none twice', async () => {
    await page.goto(`${server.url}/#/jobs/${OPS_CLUSTER}/default/${LONG_JOB}`);
    const commands = page.locator('#commands');
    await expect.poll(async () => commands.innerText(), PATIENT).toMatch(/The commands above were decided at log position #\d+ or later/);
    const from = Number(/log position #(\d+)/.exec(await commands.innerText())![1]);
    const seqs = async (table: number) => (await commands.locator('table.commands').nth(table).locator('tbody tr td:first-child').allInnerTexts()).map((t) => Number(t.slice(1)));
    const later = await seqs(0);
    expect(later.length).toBeGreaterThan(0);
    expect(later.every((seq) => seq >= from)).toBe(true);
    expect(await commands.locator('table.commands').first().innerText()).not.toContain('CreatePod');

    await commands.getByRole('button', { name: 'Show earlier commands' }).click();
    await expect.poll(async () => commands.locator('h3').innerText(), PATIENT).toBe(`Decided before #${from}`);
    const earlier = await seqs(1);
    expect(earlier.length).toBeGreaterThan(0);
    expect(earlier.every((seq) => seq < from)).toBe(true);
    expect(await commands.locator('table.commands').nth(1).innerText()).toMatch(/CreatePod[\s\S]*create 2 pod\(s\)/);
    await commands.scrollIntoViewIfNeeded();
    await screenshot(page, 'job-earlier-commands');
    expect(problems).toEqual([]);
  });
});

describe('the JobSet page of a log longer than the view\'s window', () => {
  it('lists the child Job commands decided before it on demand', async () => {
    await page.goto(`${server.url}/#/jobsets/${OPS_CLUSTER}/default/restart-job-example`);
    const commands = page.locator('#commands');
    await expect.poll(async () => commands.innerText(), PATIENT).toMatch(/No command issued at #\d+ or later[\s\S]*The commands above were decided at log position #\d+ or later/);
    const from = Number(/log position #(\d+)/.exec(await commands.innerText())![1]);
    await commands.getByRole('button', { name: 'Show earlier commands' }).click();
    await expect.poll(async () => commands.locator('h3').innerText(), PATIENT).toBe(`Decided before #${from}`);
    const rows = await commands.locator('table.commands tbody tr').allInnerTexts();
    expect(rows.length).toBeGreaterThan(3);
    expect(rows.every((row) => /^#\d+\s/.test(row) && Number(/^#(\d+)/.exec(row)![1]) < from)).toBe(true);
    expect(rows.join('\n')).toContain('CreateJob');
    expect(problems).toEqual([]);
  });
});

describe('the JobSet page', () => {
  it('lists the child Jobs, the restart and the failure policy rule that decided it', async () => {
    await page.goto(`${server.url}/#/jobsets/dev-eu-1/default/restart-job-example`);
    await expect.poll(async () => page.locator('#why').innerText(), PATIENT).toContain('failurePolicyRule1');
    expect(await page.locator('#children tbody tr').count()).toBeGreaterThan(0);
    expect(await page.locator('#describe').innerText()).toMatch(/Restarts:\s*1/);
    await screenshot(page, 'jobset');
    expect(problems).toEqual([]);
  });
});

describe('the JobSet page of a JobSet whose workers wait for their driver (dependsOn)', () => {
  it('says which replicated Jobs are not created yet and what they wait for', async () => {
    await page.goto(`${server.url}/#/jobsets/${OPS_CLUSTER}/default/driver-workers`);
    const waiting = page.locator('ul.waiting li');
    await expect.poll(async () => waiting.allInnerTexts(), PATIENT).toEqual([
      'workers: 2 of 2 Jobs not created — waiting for driver to be Ready: 0 of 1 ready',
    ]);
    await screenshot(page, 'jobset-waiting');
    expect(problems).toEqual([]);
  });
});

describe('the index grid', () => {
  it('draws a 10,000-index Job on one canvas, coloured by state, and reads it out by keyboard', async () => {
    await page.goto(`${server.url}/#/jobs/${BIG_CLUSTER}/default/${BIG_JOB}`);
    const legend = page.locator('#indexes .legend');
    await expect.poll(async () => legend.innerText(), PATIENT).toContain('Succeeded 6,100');
    const text = await legend.innerText();
    expect(text).toContain(`Failed ${BIG.adoptedFailed}`);
    expect(text).toContain(`Active ${BIG.running}`);
    expect(text).toContain('Pending 3,400');
    expect(await page.locator('#indexes canvas').count()).toBe(1);
    expect(await page.evaluate<number>("document.querySelectorAll('*').length")).toBeLessThan(3000);
    // The colour at the centre of an index's cell, from the grid's own geometry.
    // (The page's code runs in the browser: written as a string, since the tests have no DOM types.)
    const colourOf = (index: number) => page.evaluate<number[]>(`(() => {
      const canvas = document.querySelector('#indexes canvas');
      const scale = canvas.width / canvas.clientWidth;
      const cell = Number(canvas.dataset.cell);
      const cols = Number(canvas.dataset.cols);
      const x = ((${index} % cols) + 0.4) * cell * scale;
      const y = (Math.floor(${index} / cols) + 0.4) * cell * scale;
      return Array.from(canvas.getContext('2d').getImageData(Math.floor(x), Math.floor(y), 1, 1).data.slice(0, 3));
    })()`);
    expect(await colourOf(0)).toEqual([0x2e, 0x9b, 0x4f]); // succeeded
    expect(await colourOf(6100)).toEqual([0xd2, 0x37, 0x3f]); // failed
    expect(await colourOf(6300)).toEqual([0x2f, 0x6f, 0xde]); // active
    expect(await colourOf(9999)).toEqual([0xd5, 0xd9, 0xe0]); // pending
    await page.locator('#indexes canvas').focus();
    await page.keyboard.press('End');
    await expect.poll(async () => page.locator('#index-cursor').innerText(), PATIENT).toBe('Index 9,999: Pending');
    await page.keyboard.press('Home');
    await expect.poll(async () => page.locator('#index-cursor').innerText(), PATIENT).toBe('Index 0: Succeeded');
    await page.getByLabel('Go to index').fill('6100');
    await expect.poll(async () => page.locator('#index-cursor').innerText(), PATIENT).toBe('Index 6,100: Failed');
    await screenshot(page, 'index-grid');
    expect(problems).toEqual([]);
  });

  it('stays one canvas at 100,000 indexes, with the worst-shaped interval lists (30,000 runs)', async () => {
    await page.goto(`${server.url}/#/jobs/${BIG_CLUSTER}/default/${HUGE_JOB}`);
    const legend = page.locator('#indexes .legend');
    await expect.poll(async () => legend.innerText(), PATIENT).toContain('Succeeded 30,000');
    expect(await legend.innerText()).toContain('Failed 100');
    expect(await legend.innerText()).toContain('Active 50');
    expect(await page.locator('#indexes canvas').count()).toBe(1);
    expect(await page.evaluate<number>("document.querySelectorAll('*').length")).toBeLessThan(3000);
    await page.locator('#indexes canvas').focus();
    await page.keyboard.press('End');
    await expect.poll(async () => page.locator('#index-cursor').innerText(), PATIENT).toBe('Index 99,999: Pending');
    await page.getByLabel('Go to index').fill('90050');
    await expect.poll(async () => page.locator('#index-cursor').innerText(), PATIENT).toBe('Index 90,050: Failed');
    await screenshot(page, 'index-grid-100k');
    expect(problems).toEqual([]);
  });

  it('calls an index not completed, not pending, once the Job\'s outcome is decided, at each point of the log', async () => {
    // given train-exit2 of the sample: 3 indexes, index 1's pod failed by a FailJob rule at #9
    // (FailureTarget), the two others terminated, Failed at the head
    const legend = page.locator('#indexes .legend');
    const title = page.locator('#indexes h2');
    const job = `${server.url}/#/jobs/prod-us-1/batch/train-exit2`;

    // when the page is opened at the head, then at earlier points through the address alone
    await page.goto(job);
    await expect.poll(async () => legend.innerText(), PATIENT).toContain('Not completed 3');
    expect(await legend.innerText()).not.toContain('Pending');
    await screenshot(page, 'index-grid-decided');
    await page.goto(`${job}?at=9`);
    await expect.poll(async () => (await title.innerText()).trim(), PATIENT).toBe('Indexes at #9');
    await expect.poll(async () => legend.innerText(), PATIENT).toContain('Terminating 2');
    const atFailureTarget = await legend.innerText();
    await page.goto(`${job}?at=6`);
    await expect.poll(async () => legend.innerText(), PATIENT).toContain('Active 3');

    // then the index left at FailureTarget will not run: not completed; before it, pending
    expect(atFailureTarget).toContain('Not completed 1');
    expect(await legend.innerText()).toContain('Pending 0');
    expect(problems).toEqual([]);
  });

  it('follows the Job while it runs: a pod that succeeds shows up without a reload', async () => {
    await page.goto(`${server.url}/#/jobs/${BIG_CLUSTER}/default/${BIG_JOB}`);
    const legend = page.locator('#indexes .legend');
    await expect.poll(async () => legend.innerText(), PATIENT).toContain(`Active ${BIG.running}`);
    await server.succeedIndex(6200);
    // Polls back off to 16 s at most while nothing changes; the page has been open a few seconds.
    await expect.poll(async () => legend.innerText(), { ...PATIENT, timeout: 20_000 }).toContain('Succeeded 6,101');
    expect(await legend.innerText()).toContain(`Active ${BIG.running - 1}`);
    expect(await page.locator('#describe').innerText()).toContain('0-5999,6200,6500-6599');
  });
});
