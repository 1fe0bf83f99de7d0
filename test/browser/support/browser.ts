import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/** Where browser tests leave their screenshots (git-ignored). */
export const SCREENSHOTS = join(process.cwd(), 'artifacts', 'screenshots');

/**
 * Debian's Chromium, headless, with a fresh profile directory that `close()` removes. Never a
 * downloaded browser: `apt-get install -y chromium` provides /usr/bin/chromium.
 */
export async function launchChromium() {
  const profile = await mkdtemp(join(tmpdir(), 'loopchart-chromium-'));
  await mkdir(SCREENSHOTS, { recursive: true });
  const context: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1400, height: 1000 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
  return {
    context,
    /** A new tab that records every dialog (and dismisses it) and every page error. */
    async page() {
      const page = await context.newPage();
      const dialogs: string[] = [];
      const errors: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      page.on('pageerror', (error) => errors.push(error.message));
      return { page, dialogs, errors };
    },
    screenshot: (page: Page, name: string) =>
      page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true }),
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
