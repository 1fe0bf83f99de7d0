import { describe, expect, it } from 'vitest';
import { captureIo } from '../src/cli/captureIo.js';
import { runCli } from '../src/cli/runCli.js';

describe('loopchart demo', () => {
  it('runs every bundled loop end to end with a live line per step, the outcome and the trace', async () => {
    const capture = captureIo();
    const code = await runCli(['demo'], capture.io);
    expect(capture.stderr()).toBe('');
    expect(code).toBe(0);
    const stdout = capture.stdout();
    const expected = {
      'claim-incomplete-report': 'proceed',
      'claim-contradictory-plan': 'terminate_with_partial',
      'structured-output': 'proceed',
      'headline-stalled': 'stalled',
      'headline-fallback': 'fallback',
    };
    for (const [name, status] of Object.entries(expected)) {
      expect(stdout).toMatch(new RegExp(`^ {2}✓ ${name} +${status} `, 'm'));
    }
    // one progress line per step: seq, state, attempt, key or decision, duration
    expect(stdout).toMatch(/^ {2}001 {2}attempting +attempt 1 +key [0-9a-f]{8} +\d+ ms/m);
    expect(stdout).toMatch(/^ {2}\d{3} {2}routing +attempt 1 +→ refine \(1\/3\)$/m);
    expect(stdout).toMatch(/^ {2}\d{3} {2}failed +attempt 2 +→ retry$/m);
    expect(stdout).toMatch(
      /correctable: The JSON does not match the schema \(2 issues\): - total:/,
    );
    // the outcome and the trace table of each run
    expect(stdout.match(/^ {2}outcome {2}/gm)).toHaveLength(5);
    expect(
      stdout.match(/^ {2}# +state +attempt +retry +decision +key +time +note$/gm),
    ).toHaveLength(5);
  });

  it('runs only the named scenarios and fails on an unknown name', async () => {
    const one = captureIo();
    expect(await runCli(['demo', '--only', 'claim-contradictory-plan'], one.io)).toBe(0);
    expect(one.stdout().match(/^▸ /gm)).toHaveLength(1);
    const unknown = captureIo();
    expect(await runCli(['demo', '--only', 'nope'], unknown.io)).toBe(1);
    expect(unknown.stderr()).toMatch(
      /unknown scenario "nope"; the scenarios are claim-incomplete-report, /,
    );
  });
});
