import { MemoryCheckpointStore } from 'loopchart';
import { describe, expect, it } from 'vitest';
import { captureIo } from '../src/tools/cli/captureIo.js';
import { runCli } from '../src/tools/cli/runCli.js';
import { parseWindow } from '../src/tools/health/parseWindow.js';
import { createRunApi } from '../src/tools/serve/runApi.js';
import { listRuns } from '../src/tools/serve/runList.js';
import { healthResponse } from '../src/tools/viewer/health/healthRoute.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');

describe('parseWindow: one reading of since/until for the CLI, the run API and the viewer', () => {
  it.each([
    [{}, {}],
    [{ since: '24h' }, { since: NOW - 86_400_000 }],
    [{ until: '2026-05-01' }, { until: Date.parse('2026-05-01') }],
    [
      { since: '2w', until: '90s' },
      { since: NOW - 14 * 86_400_000, until: NOW - 90_000 },
    ],
  ])('reads %j as %j', (texts, window) => {
    expect(parseWindow(texts, NOW)).toEqual(window);
  });

  it('names the first end that does not parse, with the prefix its caller writes', () => {
    expect(parseWindow({ since: 'yesterday', until: 'never' }, NOW, '--')).toMatch(
      /^--since must be a duration back from now .* got 'yesterday'$/,
    );
    expect(parseWindow({ since: '7d', until: '' }, NOW)).toMatch(/^until must be .* got ''$/);
  });

  it('the CLI, the run API, the run list and the viewer all say the same about a bad until', async () => {
    const reason = parseWindow({ until: 'soon' }, NOW) as string;
    const store = new MemoryCheckpointStore();
    const capture = captureIo(false);
    expect(await runCli(['health', '--db', 'postgres://x', '--until', 'soon'], capture.io)).toBe(2);
    expect(capture.stderr().trim()).toBe(`health: --${reason}`);
    const api = await createRunApi({ store, answers: false }).health({ until: 'soon' });
    expect(api).toMatchObject({ status: 400, body: { error: { message: reason } } });
    const viewer = await healthResponse(store, new URL('http://viewer/health?until=soon&since='));
    expect(viewer).toMatchObject({ status: 400, body: `${reason}\n` });
    await expect(listRuns(store, { since: 'soon', limit: 10 })).rejects.toThrow(
      reason.replace('until', 'since'),
    );
  });
});
