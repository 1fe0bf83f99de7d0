/**
 * Every bad flag of the CLI, as a newcomer types it: exit code 2, one line naming the flag and the
 * allowed values, never a stack trace.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { captureIo } from '../src/tools/cli/captureIo.js';
import { runCli } from '../src/tools/cli/runCli.js';

const dir = mkdtempSync(join(tmpdir(), 'loopchart-cli-flags-'));
const notADatabase = join(dir, 'README.md');
writeFileSync(notADatabase, '# not a database\n'.repeat(200));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(argv: string[]) {
  const capture = captureIo(false);
  const code = await runCli(argv, capture.io);
  return { code, stdout: capture.stdout(), stderr: capture.stderr() };
}

const invalid = (flag: string, value: string, rule: string) =>
  `error: option '${flag}' argument '${value}' is invalid. It must be ${rule}.`;

describe('bad flags exit 2 with one line that names the flag', () => {
  it.each([
    [
      ['diagram', '--max-retries', 'abc'],
      invalid('--max-retries <n>', 'abc', 'an integer from 0 to 50'),
    ],
    [
      ['diagram', '--max-retries', '51'],
      invalid('--max-retries <n>', '51', 'an integer from 0 to 50'),
    ],
    [
      ['diagram', '--max-retries', '1.5'],
      invalid('--max-retries <n>', '1.5', 'an integer from 0 to 50'),
    ],
    [
      ['diagram', '--max-attempts', '0'],
      invalid('--max-attempts <n>', '0', 'an integer from 1 to 100'),
    ],
    [['diagram', '--max-cost', '-1'], invalid('--max-cost <n>', '-1', 'a number greater than 0')],
    [
      ['diagram', '--max-cost', 'lots'],
      invalid('--max-cost <n>', 'lots', 'a number greater than 0'),
    ],
    [
      ['diagram', '--stall-after', '1'],
      invalid('--stall-after <n>', '1', 'an integer from 2 to 50'),
    ],
    [
      ['diagram', '--no-stall', '--stall-after', '4'],
      "error: option '--no-stall' cannot be used with option '--stall-after <n>'",
    ],
    [
      ['diagram', '--format', 'svg'],
      "error: option '--format <format>' argument 'svg' is invalid. Allowed choices are mermaid, json.",
    ],
    [
      ['runs', 'list', '--limit', '-3'],
      invalid('--limit <n>', '-3', 'an integer from 1 to 100000'),
    ],
    [
      ['runs', 'list', '--limit', 'abc'],
      invalid('--limit <n>', 'abc', 'an integer from 1 to 100000'),
    ],
    [['runs', 'list', '--limit', '0'], invalid('--limit <n>', '0', 'an integer from 1 to 100000')],
    [
      ['runs', 'list', '--db', notADatabase],
      `runs: ${notADatabase} is not a loopchart runs database (file is not a database)`,
    ],
    [['view', '--port', 'http'], invalid('--port <n>', 'http', 'an integer from 0 to 65535')],
    [['view', '--port', '70000'], invalid('--port <n>', '70000', 'an integer from 0 to 65535')],
    [
      ['demo', '--only', 'nosuch'],
      expect.stringMatching(/^demo: unknown scenario "nosuch"; the scenarios are /),
    ],
    [
      ['benchmark', '--break-guard', 'nosuch'],
      expect.stringMatching(
        /^error: option '--break-guard <name>' argument 'nosuch' is invalid\. Allowed choices are /,
      ),
    ],
    [['diagram', '--bogus'], "error: unknown option '--bogus'"],
  ])('loopchart %j', async (argv, message) => {
    const { code, stdout, stderr } = await cli(argv);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    const lines = stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toEqual(message);
    expect(stderr).not.toMatch(/^\s+at /m);
  });
});

describe('--help speaks of the installed command and lists every flag', () => {
  it('the footer names loopchart commands, not repo scripts or files the package lacks', async () => {
    const { code, stdout } = await cli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ {2}loopchart demo\b/m);
    expect(stdout).toMatch(/--debug/);
    expect(stdout).not.toMatch(/npm run|SPEC/);
  });

  it.each([
    [['benchmark'], ['--break-guard']],
    [
      ['diagram'],
      [
        '--format',
        '--direction',
        '--id',
        '--max-retries',
        '--max-attempts',
        '--max-cost',
        '--fallback',
        '--review',
        '--no-stall',
        '--stall-after',
        '--idempotent',
      ],
    ],
    [
      ['runs', 'list'],
      ['--db', '--status', '--limit', '--json'],
    ],
    [['view'], ['--port', '--host']],
    [['demo'], ['--dir', '--only', '--viewer']],
  ])('loopchart %j --help lists %j', async (command, flags) => {
    const { code, stdout } = await cli([...command, '--help']);
    expect(code).toBe(0);
    for (const flag of flags) expect(stdout).toContain(flag);
  });
});

describe('npm run example', () => {
  const script = join(import.meta.dirname, '..', 'scripts', 'example.mjs');
  it.each([[[]], [['nosuch']]])(
    'with %j prints the usage and every example before building anything',
    async (args) => {
      const { spawnSync } = await import('node:child_process');
      const run = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });
      expect(run.status).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^usage: npm run example -- <name>$/m);
      expect(run.stderr).toMatch(/^examples: .*\bpipeline\b.*\bquickstart\b/m);
      if (args.length) expect(run.stderr).toMatch(/^no example named "nosuch"$/m);
    },
  );
});
