/**
 * One error vocabulary: every command of the built CLI, run as a child process, against each fault
 * (a missing, corrupt, unreadable or locked database, a port in use, an unreachable PostgreSQL,
 * `--schema` with a SQLite file) prints the one line docs/cli.md documents for that fault, nothing
 * else, and exits with its documented code. As root, the commands run as `nobody`, so an unreadable
 * folder is unreadable to them.
 */
import { spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { runLoop } from 'loopchart';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asNobody, runningAsRoot } from './support/asNobody.js';
import { compiledCli } from './support/compiledCli.js';

const repo = join(import.meta.dirname, '..');
const NOBODY = 65534;

/** The documented line and exit code of each fault, read from docs/cli.md's table. */
function documentedFaults(): Map<string, { line: string; exit: number }> {
  const page = readFileSync(join(repo, 'docs/cli.md'), 'utf8');
  const table = /<!-- section:faults -->([\s\S]*?)<!-- \/section:faults -->/.exec(page)?.[1] ?? '';
  const rows = table
    .split('\n')
    .filter((row) => row.startsWith('| ') && !row.startsWith('| fault'));
  return new Map(
    rows.map((row) => {
      const [fault = '', line = '', exit = ''] = row
        .slice(2, -2)
        .split(/ \| (?=[^|]*(?:\||$))/)
        .map((cell) => cell.trim());
      return [
        fault,
        { line: line.replace(/^`|`$/g, '').replaceAll('\\|', '|'), exit: Number(exit) },
      ];
    }),
  );
}

/** A documented line as a pattern: `<command>`, `<db>`, `<host>` and `<port>` are the values given. */
function expectedLine(template: string, values: Record<string, string>): string {
  return template.replace(/<(command|db|host|port)>/g, (_, name: string) => values[name] ?? '');
}

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

let cli: ReturnType<typeof compiledCli>;
let dir: string;
let busy: Server;
let busyPort: number;
let locks: Database.Database[] = [];
const faults = documentedFaults();

/** Runs the CLI (as nobody when root) in `dir`; settles when it exits. */
function run(args: string[]): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli.main, ...args], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...asNobody([cli.main, cli.loops]),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    // a command that starts serving instead of failing is stopped, and its output shows why
    const guard = setTimeout(() => child.kill('SIGTERM'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Every path under `path` readable by the commands when they run as nobody. */
function openUp(path: string) {
  if (!runningAsRoot) return;
  chownSync(path, NOBODY, NOBODY);
  if (!statSync(path).isDirectory()) return;
  chmodSync(path, 0o755);
  for (const entry of readdirSync(path)) openUp(join(path, entry));
}

async function runsDatabase(file: string) {
  const store = new SqliteCheckpointStore(file);
  await runLoop({ attempt: () => 'x', validate: () => ({ valid: true }) }, 'a', {
    store,
    runId: 'r1',
  });
  store.close();
}

beforeAll(async () => {
  cli = compiledCli('faults');
  openUp(join(cli.main, '../../..'));
  dir = mkdtempSync(join(tmpdir(), 'loopchart-faults-'));
  writeFileSync(join(dir, 'corrupt.db'), 'not a database, a note\n'.repeat(100));
  await runsDatabase(join(dir, 'runs.db'));
  await runsDatabase(join(dir, 'locked.db'));
  mkdirSync(join(dir, 'corrupt'));
  writeFileSync(join(dir, 'corrupt', 'runs.db'), 'not a database either\n'.repeat(100));
  mkdirSync(join(dir, 'locked'));
  await runsDatabase(join(dir, 'locked', 'runs.db'));
  mkdirSync(join(dir, 'secret'));
  await runsDatabase(join(dir, 'secret', 'runs.db'));
  openUp(dir);
  chmodSync(join(dir, 'secret'), 0o000);
  // another process holds both locked databases: exclusive locking, a write transaction open
  locks = [join(dir, 'locked.db'), join(dir, 'locked', 'runs.db')].map((file) => {
    const db = new Database(file);
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec("BEGIN EXCLUSIVE; DELETE FROM loopchart_checkpoints WHERE run_id = 'none'");
    return db;
  });
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  busyPort = (busy.address() as { port: number }).port;
}, 120_000);

afterAll(async () => {
  for (const db of locks) db.close();
  await new Promise((resolve) => busy?.close(resolve));
  if (dir) {
    chmodSync(join(dir, 'secret'), 0o755);
    rmSync(dir, { recursive: true, force: true });
  }
  cli?.remove();
});

const unreachable = 'postgres://loopchart:secret@127.0.0.1:1/runs';
const shown = 'postgres://loopchart:***@127.0.0.1:1/runs';

/** The commands that read runs, with the --db each fault gives them (and the demo's --dir). */
function readers(db: string, demoDir?: string): [string, string[]][] {
  return [
    ['runs', ['runs', 'list', '--db', db]],
    ['runs', ['runs', 'show', 'r1', '--db', db]],
    ['health', ['health', '--db', db]],
    ['what-if', ['what-if', '--db', db]],
    ['serve', ['serve', '--port', '0', '--db', db]],
    ['mcp', ['mcp', '--db', db]],
    ['view', ['view', '--port', '0', '--db', db]],
    ...(demoDir ? [['demo', ['demo', '--dir', demoDir]] as [string, string[]]] : []),
  ];
}

const cases: { fault: string; db: string; commands: () => [string, string[]][] }[] = [
  { fault: 'missing database', db: 'absent.db', commands: () => readers('absent.db') },
  { fault: 'corrupt database', db: 'corrupt.db', commands: () => readers('corrupt.db') },
  {
    fault: 'unreadable database or folder',
    db: 'secret/runs.db',
    commands: () => readers('secret/runs.db', 'secret'),
  },
  { fault: 'locked database', db: 'locked.db', commands: () => readers('locked.db') },
  { fault: 'unreachable PostgreSQL', db: shown, commands: () => readers(unreachable) },
  {
    fault: 'port in use',
    db: '',
    commands: () => [
      ['view', ['view', '--port', String(busyPort)]],
      ['serve', ['serve', '--port', String(busyPort), '--db', 'runs.db']],
    ],
  },
  {
    fault: '`--schema` with a SQLite file',
    db: 'runs.db',
    commands: () =>
      readers('runs.db').map(([name, args]) => [name, [...args, '--schema', 'billing']]),
  },
];

describe('every command reports each fault in the documented words, with the documented exit code', () => {
  it('documents each fault this test runs, once', () => {
    expect([...faults.keys()].sort()).toEqual(cases.map((c) => c.fault).sort());
  });

  it.each(cases)(
    '$fault',
    async ({ fault, db, commands }) => {
      const documented = faults.get(fault);
      if (!documented) throw new Error(`docs/cli.md documents no '${fault}'`);
      const list = commands();
      const results = await Promise.all(list.map(([, args]) => run(args)));
      const seen = list.map(([, args], i) => ({ args: args.join(' '), ...results[i] }));
      const wanted = list.map(([command, args]) => ({
        args: args.join(' '),
        code: documented.exit,
        stdout: '',
        stderr: `${expectedLine(documented.line, { command, db, host: '127.0.0.1', port: String(busyPort) })}\n`,
      }));
      expect(seen).toEqual(wanted);
    },
    120_000,
  );

  it('the demo names a corrupt or locked runs.db in its folder the same way', async () => {
    const [corrupt, locked] = await Promise.all([
      run(['demo', '--dir', 'corrupt']),
      run(['demo', '--dir', 'locked']),
    ]);
    const line = (fault: string, db: string) =>
      `${expectedLine(faults.get(fault)?.line ?? '', { command: 'demo', db })}\n`;
    expect(corrupt).toEqual({
      code: faults.get('corrupt database')?.exit,
      stdout: '',
      stderr: line('corrupt database', join('corrupt', 'runs.db')),
    });
    expect(locked).toEqual({
      code: faults.get('locked database')?.exit,
      stdout: '',
      stderr: line('locked database', join('locked', 'runs.db')),
    });
  }, 120_000);
});
