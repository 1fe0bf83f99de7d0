import { existsSync } from 'node:fs';
import { expect, it, vi } from 'vitest';

it('the inspector example reports two runs to an in-process viewer, writes a report, and ends', async () => {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  try {
    await import('../examples/inspector/inspector.js');
    const lines = log.mock.calls.map((call) => String(call[0]));
    expect(lines[0]).toMatch(/^viewer: http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(lines).toContain('headline: proceed after 1 refine(s)');
    expect(lines).toContain(
      'notice: iteration_exhausted (Correctable errors spent all 3 retries and there is no fallback.)',
    );
    expect(lines).toContain('report: artifacts/reports/inspector-example.html');
    expect(lines).toContain('runs in the viewer: loop #1 done, loop #2 done');
    expect(existsSync('artifacts/reports/inspector-example.html')).toBe(true);
    const url = lines[0]?.slice('viewer: '.length) as string;
    await expect(fetch(url)).rejects.toThrow(); // the example closed its viewer
  } finally {
    log.mockRestore();
  }
});
