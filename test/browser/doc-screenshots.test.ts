/**
 * The viewer's screenshots in docs/ are current: taken again into a temporary folder, each page
 * has the fingerprint recorded when `npm run screenshots` took the committed one (the DOM and SVG
 * it was taken from: states, routes, labels, legend, not pixels), and each committed PNG is the
 * file that run wrote.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DOC_SCREENSHOTS,
  takeDocScreenshot,
  writeDocReports,
} from '../../scripts/docScreenshots.js';
import { launchChromium } from './support/browser.js';

const HOOK_TIMEOUT = 90_000;
const dir = mkdtempSync(join(tmpdir(), 'loopchart-doc-screenshots-'));
const recorded = JSON.parse(
  readFileSync(join(process.cwd(), 'test', 'fixtures', 'doc-screenshots.json'), 'utf8'),
) as Record<string, { sha256: string; fingerprint: string }>;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let reports: Awaited<ReturnType<typeof writeDocReports>>;

beforeAll(async () => {
  [browser, reports] = await Promise.all([launchChromium(), writeDocReports(dir)]);
}, HOOK_TIMEOUT);
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
}, HOOK_TIMEOUT);

describe('the screenshots in docs/ (npm run screenshots takes them again)', () => {
  const shots = DOC_SCREENSHOTS.map((shot) => [shot.file, shot] as const);
  it.each(shots)('docs/%s shows what the viewer draws today', async (_file, shot) => {
    const { page, errors } = await browser.page();
    const fingerprint = await takeDocScreenshot(page, reports, shot, join(dir, shot.file));
    await page.close();
    const before = recorded[shot.file];
    expect(before, `no record of docs/${shot.file}: run npm run screenshots`).toBeDefined();
    expect(fingerprint, `docs/${shot.file} is stale: run npm run screenshots`).toBe(
      before?.fingerprint,
    );
    const committed = readFileSync(join(process.cwd(), 'docs', shot.file));
    expect(createHash('sha256').update(committed).digest('hex')).toBe(before?.sha256);
    expect(errors).toEqual([]);
  });

  it('records no screenshot that docs/ does not have', () => {
    expect(Object.keys(recorded).sort()).toEqual(DOC_SCREENSHOTS.map((shot) => shot.file).sort());
  });
});
