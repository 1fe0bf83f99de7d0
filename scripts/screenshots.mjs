#!/usr/bin/env node
// `npm run screenshots`: builds the library, then takes the viewer's screenshots in docs/ in
// headless Chromium and records each one's fingerprint and hash in
// test/fixtures/doc-screenshots.json, which test/browser/doc-screenshots.test.ts checks.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const root = join(import.meta.dirname, '..');
for (const args of [
  ['run', 'build', '--silent'],
  ['exec', '--', 'tsc', '-p', 'tsconfig.run.json'],
]) {
  const built = spawnSync('npm', args, { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const { DOC_SCREENSHOTS, takeDocScreenshot, writeDocReports } = await import(
  pathToFileURL(join(root, '.build', 'scripts', 'docScreenshots.js')).href
);

const dir = mkdtempSync(join(tmpdir(), 'loopchart-screenshots-'));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  const reports = await writeDocReports(dir);
  const recorded = {};
  for (const shot of DOC_SCREENSHOTS) {
    const page = await browser.newPage();
    const png = join(root, 'docs', shot.file);
    const fingerprint = await takeDocScreenshot(page, reports, shot, png);
    await page.close();
    const sha256 = createHash('sha256').update(readFileSync(png)).digest('hex');
    recorded[shot.file] = { sha256, fingerprint };
    console.log(`docs/${shot.file}  ${shot.viewport.width}×${shot.viewport.height}`);
  }
  const fixture = join(root, 'test', 'fixtures', 'doc-screenshots.json');
  writeFileSync(fixture, `${JSON.stringify(recorded, null, 2)}\n`);
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
