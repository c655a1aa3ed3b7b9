// The dashboard in a real browser against a real `quire serve` and database: sign in, copy the
// project id, create and revoke a key (and prove with the API that it stopped working), start a
// job and watch it finish with a scripted model, read analytics after ingesting page views, at
// desktop and phone widths. Screenshots of each page: see test/browser.ts.
import assert from 'node:assert/strict';
import net from 'node:net';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { insertApiKey } from '../src/auth/api-key-store.ts';
import { browserUnavailable, isolatedContext, launchBrowser, screenshotDirectory } from './browser.ts';
import { createTestDatabase } from './database.ts';
import { buildProject } from './factories.ts';
import { type ChatRequest, type ChatTurn, startOpenAICompatibleServer } from './openai-compatible-server.ts';
import { startQuireServer } from './processes.ts';
import { createRepository, temporaryDirectory } from './temporary-repository.ts';

const unavailable = browserUnavailable();
const browserAgent =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The scripted model: fixes the typo in the quickstart, then says so; asked in a review comment
 * (a follow-up fenced as `<review-comment>`), adds the install command.
 */
function scriptedTurn(request: ChatRequest): ChatTurn {
  const lastUser = request.messages.map((message) => message.role).lastIndexOf('user');
  const toolResults = request.messages
    .slice(lastUser + 1)
    .filter((message) => message.role === 'tool').length;
  const edit = (old_string: string, new_string: string): ChatTurn => ({
    toolCalls: [{ name: 'edit_file', arguments: { path: 'docs/quickstart.md', old_string, new_string } }],
  });
  const read: ChatTurn = { toolCalls: [{ name: 'read_file', arguments: { path: 'docs/quickstart.md' } }] };
  const commented = JSON.stringify(request.messages[lastUser]?.content ?? '').includes('<review-comment>');
  const plan: ChatTurn[] = commented
    ? [
        read,
        edit('Install the CLI.', 'Install the CLI with `npm install -g acme`.'),
        { text: 'Added the npm command to the quickstart.' },
      ]
    : [read, edit('Instal the', 'Install the'), { text: 'Fixed the typo "Instal" in the quickstart.' }];
  return plan[toolResults] ?? { text: 'Done.' };
}

describe('the dashboard in a browser', { skip: unavailable ?? false, timeout: 180_000 }, async () => {
  if (unavailable) return;
  const directory = temporaryDirectory('quire-browser-');
  after(() => directory.cleanup());
  const model = await startOpenAICompatibleServer({ apiKey: 'sk-browser', script: [scriptedTurn] });
  after(() => model.close());
  const database = await createTestDatabase();
  const repository = createRepository(path.join(directory.path, 'docs-repo'), {
    'mkdocs.yml': 'site_name: Acme\nnav:\n  - Home: index.md\n  - Quickstart: quickstart.md\n',
    'docs/index.md': '# Acme\n\nSee the [quickstart](quickstart.md).\n',
    'docs/quickstart.md': '# Quickstart\n\nInstal the CLI.\n',
  });
  const project = await buildProject(database.pool, { name: 'Acme docs', repository, codeHost: 'local' });
  const port = await freePort();
  const server = await startQuireServer(
    {
      DATABASE_URL: database.connectionString,
      QUIRE_DATA_DIR: path.join(directory.path, 'data'),
      QUIRE_PUBLIC_URL: `http://127.0.0.1:${port}`,
      QUIRE_MODEL: 'openai-compatible:scripted-llm',
      OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
      OPENAI_COMPATIBLE_API_KEY: 'sk-browser',
    },
    ['--port', String(port)],
  );
  const base = server.url;
  const password = await waitForPassword(server.output);
  const browser = await launchBrowser();
  const { context, externalRequests } = await isolatedContext(browser, base);
  const page = await context.newPage();
  page.on('dialog', (dialog) => void dialog.accept());
  let reviewLink = '';
  const shot = (name: string) =>
    page.screenshot({ path: path.join(screenshotDirectory, `${name}.png`), fullPage: true });

  it('signs in with the password the first start printed', async () => {
    await page.goto(`${base}/`);
    assert.match(page.url(), /\/dashboard\/sign-in\?next=/);
    await page.getByLabel('Email').fill('admin@localhost');
    await page.getByLabel('Password').fill('wrong password!');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Incorrect email or password').waitFor();
    await shot('sign-in');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    assert.equal(new URL(page.url()).pathname, `/dashboard/projects/${project.id}/keys`);
  });

  it('copies the project id', async () => {
    await page.getByRole('button', { name: 'Copy project id' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), project.id);
  });

  it('creates a key, shown once, that works; revoking it stops it', async () => {
    await page.getByLabel('Name').fill('Docs CI');
    await page.getByLabel('ingest').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = await page.locator('#new-key').inputValue();
    assert.match(secret, /^quire_[\w-]{43}$/);
    await page.getByRole('button', { name: 'Copy key' }).click();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
    const call = () =>
      fetch(`${base}/v1/projects/${project.id}`, { headers: { authorization: `Bearer ${secret}` } });
    assert.equal((await call()).status, 200);

    await page.goto(`${base}/dashboard/projects/${project.id}/keys`);
    assert.equal((await page.content()).includes(secret), false, 'not shown again');
    const row = page.getByRole('row', { name: /Docs CI/ });
    await row.getByText(`quire_…${secret.slice(-4)}`).waitFor();
    await row.getByText('read, write, ingest').waitFor();
    await shot('api-keys');
    await row.getByRole('button', { name: /Revoke/ }).click();
    await page.getByText('The key is revoked').waitFor();
    assert.equal((await call()).status, 401);
  });

  it('starts a job and watches it finish: conversation, step log, diff, pull request', async () => {
    await page.getByRole('link', { name: 'Agent jobs' }).click();
    await page.getByText('No jobs yet').waitFor();
    await shot('agent-jobs-empty');
    await page.getByLabel('Instruction for the agent').fill('Fix the typo in the quickstart');
    await page.getByRole('button', { name: 'Start job' }).click();
    await page.getByRole('heading', { name: 'Fix the typo in the quickstart' }).waitFor();
    // The page reloads by itself when the live log reports the end of the job.
    await page.locator('#job-status', { hasText: 'completed' }).waitFor({ timeout: 60_000 });
    const log = page.locator('#step-log');
    await log.getByText('read_file').first().waitFor();
    await log.getByText('Commit').waitFor();
    await log.getByText('Pull request opened').waitFor();
    await page
      .locator('.conversation .agent', { hasText: 'Fixed the typo "Instal" in the quickstart.' })
      .waitFor();
    await page.locator('.diff .added', { hasText: '+Install the CLI.' }).waitFor();
    const link = await page.locator('#pull-request a').getAttribute('href');
    assert.match(link ?? '', new RegExp(`^http://127\\.0\\.0\\.1:${port}/review/rev_\\w+$`));
    reviewLink = link ?? '';
    await shot('agent-job');

    await page.getByRole('link', { name: '← Agent jobs' }).click();
    await page.getByRole('link', { name: 'completed' }).click();
    const row = page.getByRole('row', { name: /Fix the typo in the quickstart/ });
    await row.getByRole('link', { name: /review/ }).waitFor();
    await shot('agent-jobs');
  });

  it("comments on the review page, and reads Quire's answer and its change there", async () => {
    await page.goto(reviewLink);
    await page.getByRole('heading', { name: 'Conversation' }).waitFor();
    await page.getByText('No comments yet.').waitFor();
    await page.getByLabel('Comment for Quire').fill('Please say how to install it with npm.');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    await page.getByText('Comment sent to Quire.').waitFor();
    await page
      .locator('.conversation .user', { hasText: 'Please say how to install it with npm.' })
      .waitFor();
    await page.getByText('Quire is working on the last comment').waitFor();
    // The worker answers every 5 seconds once the follow-up run has ended; the page is read again.
    const deadline = Date.now() + 90_000;
    while ((await page.locator('.conversation .quire').count()) === 0) {
      assert.ok(Date.now() < deadline, "Quire's answer did not appear on the review page");
      await page.waitForTimeout(500);
      await page.reload();
    }
    await page
      .locator('.conversation .quire', { hasText: 'Added the npm command to the quickstart.' })
      .waitFor();
    await page.locator('.diff .added', { hasText: '+Install the CLI with `npm install -g acme`.' }).waitFor();
    await shot('review');
    await page.goto(`${base}/dashboard/projects/${project.id}/jobs`);
  });

  it('reads analytics after ingesting page views', async () => {
    const { secret } = await insertApiKey(database.pool, {
      projectId: project.id,
      name: 'site',
      scopes: ['ingest'],
    });
    const now = new Date().toISOString();
    const events = [
      ...Array.from({ length: 3 }, () => ({ path: '/guide/intro', timestamp: now, userAgent: browserAgent })),
      {
        path: 'https://docs.acme.test/guide/intro?ref=x',
        timestamp: now,
        userAgent: 'Mozilla/5.0 (compatible; ChatGPT-User/1.0)',
      },
      { path: '/reference/cli.md', timestamp: now, userAgent: 'Claude-User/1.0' },
      { path: '/guide/intro', timestamp: now, userAgent: 'Mozilla/5.0 (compatible; GPTBot/1.2)' },
    ];
    const ingest = await fetch(`${base}/v1/analytics/${project.id}/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ events }),
    });
    assert.equal(ingest.status, 202);
    await page.getByRole('link', { name: 'Analytics' }).click();
    await page.getByRole('heading', { name: 'Top pages' }).waitFor();
    const totals = page.getByLabel('Totals');
    await totals.getByText('Human views').waitFor();
    const intro = page.getByRole('row', { name: /\/guide\/intro/ });
    assert.deepEqual(
      (await intro.getByRole('cell').allInnerTexts()).map((text) => text.trim()),
      // Path, human, AI, total, from AI answers, verified AI, AI crawlers (GPTBot), other bots, visitors
      // (no event carried an address).
      ['/guide/intro', '3', '1', '4', '0', '0', '1', '0', '0'],
    );
    await page.getByRole('row', { name: /\/reference\/cli/ }).waitFor();
    await page.getByRole('heading', { name: 'AI agents' }).waitFor();
    await shot('analytics');
  });

  it('shows the settings with the tracker snippet, never a stored secret', async () => {
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Allowed origins, one per line').fill('https://docs.example.com/');
    await page.getByRole('button', { name: 'Save origins' }).click();
    await page.getByText('Allowed origins saved.').waitFor();
    assert.equal(
      await page.getByLabel('Allowed origins, one per line').inputValue(),
      'https://docs.example.com',
    );
    await page.getByLabel('Token', { exact: false }).first().fill('ghp_browserTestToken');
    await page.getByRole('button', { name: 'Save credentials' }).click();
    await page.getByText('Code host credentials saved.').waitFor();
    assert.equal((await page.content()).includes('ghp_browserTestToken'), false);
    await shot('settings');
  });

  it('is usable at phone width and from the keyboard', async () => {
    const phone = await isolatedContext(browser, base, { viewport: { width: 390, height: 844 } });
    await phone.context.addCookies(await context.cookies());
    const small = await phone.context.newPage();
    await small.goto(`${base}/dashboard/projects/${project.id}/keys`);
    const overflow = await small.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    const wide = await small.evaluate(() =>
      [...document.querySelectorAll('main *')]
        .filter((element) => element.scrollWidth > element.clientWidth && element.clientWidth > 0)
        .filter((element) => getComputedStyle(element).overflowX === 'visible')
        .map((element) => `${element.tagName}.${element.className}`),
    );
    assert.ok(overflow <= 0, `no sideways scrolling (${overflow}px too wide: ${wide.join(', ')})`);
    await small.screenshot({ path: path.join(screenshotDirectory, 'api-keys-phone.png'), fullPage: true });
    await small.keyboard.press('Tab');
    assert.equal(await small.evaluate(() => document.activeElement?.textContent), 'Skip to content');
    // Keyboard only: reach the name field, type, tab to the button, press Enter.
    await small.getByLabel('Name').focus();
    await small.keyboard.type('Keyboard key');
    await small.getByRole('button', { name: 'Create key' }).focus();
    await small.keyboard.press('Enter');
    await small.locator('#new-key').waitFor();
    await phone.context.close();
    assert.deepEqual([...externalRequests, ...phone.externalRequests], [], 'no request left the server');
  });
});

async function waitForPassword(output: () => string): Promise<string> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const match = /shown only this once:\n\n {2}(\S+)\n/.exec(output());
    if (match) return match[1]!;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no password printed:\n${output()}`);
}
