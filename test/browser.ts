/**
 * A real headless Chromium (Debian's, at /usr/bin/chromium) driven by playwright-core: nothing is
 * downloaded. Browser tests skip, saying why, when it is not installed; CI installs it (.ci/run).
 */
import fs from 'node:fs';
import path from 'node:path';
import { after } from 'node:test';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';

export const chromiumPath = '/usr/bin/chromium';
/**
 * Every run saves its screenshots under test-results/screenshots (not committed); with
 * QUIRE_UPDATE_SCREENSHOTS=1 they replace the committed ones in docs/screenshots.
 */
export const screenshotDirectory = path.join(
  import.meta.dirname,
  '..',
  ...(process.env.QUIRE_UPDATE_SCREENSHOTS === '1'
    ? ['docs', 'screenshots']
    : ['test-results', 'screenshots']),
);
fs.mkdirSync(screenshotDirectory, { recursive: true });

/** Null when Chromium is missing: the caller skips with this message. */
export function browserUnavailable(): string | null {
  return fs.existsSync(chromiumPath)
    ? null
    : `${chromiumPath} is not installed (apt-get install -y chromium); browser tests skipped`;
}

export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  after(() => browser.close());
  return browser;
}

/**
 * A browser context that may reach only `origin`: any other request is refused and recorded, so a
 * test can prove that the pages need no external network.
 */
export async function isolatedContext(
  browser: Browser,
  origin: string,
  options: { viewport?: { width: number; height: number } } = {},
): Promise<{ context: BrowserContext; externalRequests: string[] }> {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const externalRequests: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`) || url === origin) return route.continue();
    externalRequests.push(url);
    return route.abort();
  });
  return { context, externalRequests };
}
