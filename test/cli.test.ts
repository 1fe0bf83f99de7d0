import { describe, expect, it } from 'vitest';
import { captureIo } from '../src/tools/cli/captureIo.js';
import { wantsColor } from '../src/tools/cli/cliOutput.js';
import { runCli } from '../src/tools/cli/runCli.js';

/** Runs the CLI in this process and captures what it writes. */
async function cli(argv: string[], color = false) {
  const capture = captureIo(color);
  const code = await runCli(argv, capture.io);
  return { code, stdout: capture.stdout(), stderr: capture.stderr() };
}

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[`);

describe('loopchart --help', () => {
  it.each([['--help'], ['-h']])(
    '%s says what loopchart is, lists the commands and exits 0',
    async (flag) => {
      const { code, stdout } = await cli([flag]);
      expect(code).toBe(0);
      expect(stdout).toMatch(/^Usage: loopchart/);
      expect(stdout).toMatch(/Self-correcting loops[\s\S]*XState v5 statecharts/);
      expect(stdout).toMatch(/^ {2}demo\b/m);
      expect(stdout).toMatch(/^ {2}benchmark\b/m);
      expect(stdout).not.toMatch(/break-guard/);
    },
  );

  it('prints the package version', async () => {
    const { code, stdout } = await cli(['--version']);
    expect(code).toBe(0);
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('exits 2 on an unknown command, with a suggestion', async () => {
    const { code, stderr } = await cli(['benchmrk']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/Did you mean benchmark\?/);
  });
});

describe('colour', () => {
  it.each([
    [{}, true, true],
    [{}, false, false],
    [{}, undefined, false],
    [{ NO_COLOR: '1' }, true, false],
    [{ TERM: 'dumb' }, true, false],
    [{ FORCE_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '0' }, false, false],
    [{ NO_COLOR: '1', FORCE_COLOR: '1' }, true, false],
  ])('env %j, terminal %s → colour %s', (env, isTTY, expected) => {
    expect(wantsColor(env, isTTY)).toBe(expected);
  });

  it('writes no escape codes when colour is off, and colours when it is on', async () => {
    const plain = await cli(['benchmark'], false);
    expect(plain.stdout).not.toMatch(ANSI);
    const coloured = await cli(['benchmark'], true);
    expect(coloured.stdout).toMatch(ANSI);
  }, 90_000);
});

describe('loopchart benchmark', () => {
  const checks = [
    'valid → proceed',
    'fundamental → terminate_with_partial',
    'correctable with budget → refine, count goes up',
    'correctable with budget spent → fallback',
    'invalid with no error → terminate_with_partial',
    'a run always terminates within its bounds',
    'becomes valid after N refines → proceed, iterations = N',
    'closed loop exits naturally',
    'closed loop cap exhausted',
    'stall detected',
    'varying output not stalled',
    'human-gated: review',
    'human-gated: clarification',
  ];

  it('passes every check of the battery, one line each, and exits 0', async () => {
    const { code, stdout } = await cli(['benchmark']);
    expect(code).toBe(0);
    const lines = stdout.split('\n').filter((line) => /^[✓✗] /.test(line));
    expect(lines).toHaveLength(checks.length);
    for (const [i, name] of checks.entries())
      expect(lines[i]?.startsWith(`✓ ${name}  `)).toBe(true);
    expect(stdout).toMatch(/all 13 checks passed/);
  }, 90_000);

  it.each([
    ['isFundamental', ['fundamental → terminate_with_partial']],
    [
      'hasRetriesLeft',
      [
        'correctable with budget → refine, count goes up',
        'becomes valid after N refines → proceed, iterations = N',
      ],
    ],
    ['isStalled', ['stall detected']],
  ])(
    'fails, naming the check, when the guard %s is broken',
    async (guard, mustFail) => {
      const { code, stdout, stderr } = await cli(['benchmark', '--break-guard', guard]);
      expect(code).toBe(1);
      for (const name of mustFail) {
        expect(stdout).toMatch(new RegExp(`^✗ ${escapeRegExp(name)}`, 'm'));
        expect(stderr).toContain(name);
      }
      expect(stdout).toMatch(/^✓ valid → proceed/m);
    },
    90_000,
  );
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
