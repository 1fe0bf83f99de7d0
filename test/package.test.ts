/**
 * The published package, as a user gets it: `npm pack` of a fresh build, installed from the tarball
 * into an empty project outside this repo (no install warning from loopchart), where every subpath
 * export is imported, a loop is run (with the SQLite store too) and the `loopchart` bin works;
 * without the optional peers the demo says which it needs before running anything. The shipped
 * docs point only at what the tarball holds. publint and attw check the tarball.
 */
import { execFile, execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compileIn,
  isOurs,
  prepareConsumerTypes,
  STRICT_CONSUMER,
} from './support/consumerTypes.js';
import { shippedDocProblems } from './support/shippedDocs.js';

const run = promisify(execFile);
const repo = join(import.meta.dirname, '..');
const bin = (name: string) => join(repo, 'node_modules', '.bin', name);
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, unknown>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};
const subpaths = Object.keys(pkg.exports).filter((key) => key !== './package.json');

let work: string;
let tarball: string;
let consumer: string;
let installMs: number;
let installOutput: string;
let bare: Awaited<ReturnType<typeof bareInstallFacts>>;

/** What a consumer gets with no optional peer: packages, native builds, and loopchart/sqlite's error. */
async function bareInstallFacts(dir: string) {
  const packages = readdirSync(join(dir, 'node_modules')).flatMap((name) =>
    name.startsWith('@')
      ? readdirSync(join(dir, 'node_modules', name)).map((scoped) => `${name}/${scoped}`)
      : [name],
  );
  const native = readdirSync(join(dir, 'node_modules'), {
    recursive: true,
    encoding: 'utf8',
  }).filter((file) => file.endsWith('.node') || file.endsWith('binding.gyp'));
  writeFileSync(
    join(dir, 'sqlite-without-peer.mjs'),
    "import('loopchart/sqlite').then(() => console.log('loaded'), (error) => console.log(error.message));",
  );
  const { stdout } = await sh(process.execPath, ['sqlite-without-peer.mjs'], dir);
  const demo = await run(join(dir, 'node_modules/.bin/loopchart'), ['demo', '--dir', 'demo'], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1' },
  }).then(
    () => ({ code: 0, stdout: '', stderr: '' }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  );
  return { packages, native, sqliteImport: stdout, demo };
}

/** Runs a command; on failure the error carries its output, so the test says what went wrong. */
async function sh(file: string, args: string[], cwd: string) {
  try {
    return await run(file, args, {
      cwd,
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, NO_COLOR: '1' },
    });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${file} ${args.join(' ')} failed:\n${stdout}\n${stderr}`);
  }
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'loopchart-pack-'));
  // Build and pack a copy, so a concurrent build of this checkout cannot change what is packed.
  const source = join(work, 'source');
  mkdirSync(source);
  for (const entry of [
    'src',
    'docs',
    'examples',
    'package.json',
    'README.md',
    'tsconfig.base.json',
    'tsconfig.build.json',
  ]) {
    cpSync(join(repo, entry), join(source, entry), { recursive: true });
  }
  symlinkSync(join(repo, 'node_modules'), join(source, 'node_modules'), 'dir');
  // Type errors are the typecheck's to report; what matters here is what gets emitted and packed.
  await run(
    process.execPath,
    [join(repo, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    { cwd: source },
  ).catch(() => undefined);
  const { stdout } = await sh(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--pack-destination', work],
    source,
  );
  tarball = join(work, (JSON.parse(stdout) as [{ filename: string }])[0].filename);

  consumer = join(work, 'consumer');
  mkdirSync(consumer);
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  // The required peers, and zod, which a user of schemaValidator installs beside loopchart.
  const optional = pkg.peerDependenciesMeta ?? {};
  const required = Object.keys(pkg.peerDependencies ?? {}).filter(
    (name) => !optional[name]?.optional,
  );
  const extras = [...required, 'zod'].map((name) => {
    const { version } = JSON.parse(
      readFileSync(join(repo, 'node_modules', name, 'package.json'), 'utf8'),
    );
    return `${name}@${version}`;
  });
  const started = performance.now();
  const installed = await sh(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, ...extras],
    consumer,
  );
  installMs = performance.now() - started;
  installOutput = `${installed.stdout}\n${installed.stderr}`;
  bare = await bareInstallFacts(consumer);
  // The optional peers, borrowed from this checkout (better-sqlite3 would compile for a minute).
  for (const name of Object.keys(optional)) {
    const target = join(consumer, 'node_modules', name);
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(join(repo, 'node_modules', name), target, 'dir');
  }
}, 180_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
}, 60_000);

describe('the packed tarball, installed in a fresh project', () => {
  it('installs without an optional peer: no native build, neither better-sqlite3 nor elkjs', () => {
    console.log(`consumer install of the tarball: ${(installMs / 1000).toFixed(1)} s`);
    expect(bare.packages).toContain('loopchart');
    expect(bare.packages).toContain('xstate');
    expect(bare.packages).not.toContain('better-sqlite3');
    expect(bare.packages).not.toContain('elkjs');
    expect(bare.native).toEqual([]);
    expect(bare.sqliteImport).toBe(
      'loopchart/sqlite needs the optional peer dependency better-sqlite3: npm install better-sqlite3@12\n',
    );
  });

  it('installs without a warning about loopchart (no install scripts: no prepare)', () => {
    const warnings = installOutput.split('\n').filter((line) => /warn/i.test(line));
    expect(warnings.filter((line) => /loopchart|install-scripts/.test(line))).toEqual([]);
    const { scripts = {} } = JSON.parse(
      readFileSync(join(consumer, 'node_modules/loopchart/package.json'), 'utf8'),
    ) as { scripts?: Record<string, string> };
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) {
      expect(scripts[hook], hook).toBeUndefined();
    }
  });

  it('says which optional peers the demo needs, before running anything, without them', () => {
    expect(bare.demo).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'demo: the demo needs the optional peer dependencies better-sqlite3@12 (the runs are kept in SQLite) and elkjs@0.12 (the reports draw the charts with it): npm install better-sqlite3@12 elkjs@0.12\n',
    });
  });

  it('ships docs whose every link and path resolves inside the tarball', () => {
    const root = join(work, 'extracted');
    mkdirSync(root, { recursive: true });
    execFileSync('tar', ['-xzf', tarball, '-C', root]);
    const problems = shippedDocProblems(join(root, 'package'));
    expect(problems).toEqual([]);
  });

  it('ships dist, the README and the bin, and no tests or sources', async () => {
    const { stdout } = await sh('tar', ['-tzf', tarball], work);
    const files = stdout.split('\n').filter(Boolean);
    expect(files).toContain('package/dist/entries/index.js');
    expect(files).toContain('package/dist/entries/cli.js');
    expect(files).toContain('package/README.md');
    expect(files.filter((f) => /\.test\.|^package\/(src|test)\//.test(f))).toEqual([]);
    for (const subpath of subpaths) {
      const target = pkg.exports[subpath] as { default: string; types: string };
      expect(files).toContain(`package/${target.default.slice(2)}`);
      expect(files).toContain(`package/${target.types.slice(2)}`);
    }
  });

  it('imports every subpath export and runs a loop, with the SQLite store too', async () => {
    const script = `
      const subpaths = ${JSON.stringify(subpaths)};
      const found = {};
      for (const subpath of subpaths) {
        const mod = await import('loopchart' + subpath.slice(1));
        found[subpath] = Object.keys(mod).length;
      }
      const { runLoop, schemaValidator } = await import('loopchart');
      const { z } = await import('zod');
      const outcome = await runLoop({
        attempt: ({ attempt }) => (attempt === 1 ? 'draft' : 'final draft'),
        validate: (c) => c === 'final draft' ? { valid: true } : { valid: false, error: { severity: 'correctable', message: 'not final' } },
      }, 'task');
      const { SqliteCheckpointStore } = await import('loopchart/sqlite');
      const store = new SqliteCheckpointStore(${JSON.stringify(join(work, 'consumer.db'))});
      const stored = await runLoop({ attempt: () => '{"n": 1}', validate: schemaValidator(z.object({ n: z.number() })) }, 'x', { store, runId: 'r1' });
      const runs = await store.list();
      store.close();
      console.log(JSON.stringify({ found, status: outcome.status, iterations: outcome.iterations, stored: stored.status, runs: runs.map((r) => r.runId) }));
    `;
    writeFileSync(join(consumer, 'check.mjs'), script);
    const { stdout } = await sh(process.execPath, ['check.mjs'], consumer);
    const result = JSON.parse(stdout);
    for (const subpath of subpaths) expect(result.found[subpath], subpath).toBeGreaterThan(0);
    expect(result).toMatchObject({
      status: 'proceed',
      iterations: 1,
      stored: 'proceed',
      runs: ['r1'],
    });
  }, 60_000);

  it('installs the loopchart bin: --help and the demo (SQLite, reports) work from the package', async () => {
    const loopchart = join(consumer, 'node_modules', '.bin', 'loopchart');
    const help = await sh(loopchart, ['--help'], consumer);
    expect(help.stdout).toMatch(/^Usage: loopchart/);
    const demo = await sh(loopchart, ['demo', '--dir', join(work, 'demo')], consumer);
    expect(demo.stdout).toMatch(/^Saved +5 runs/m);
    expect(existsSync(join(work, 'demo', 'runs.db'))).toBe(true);
    expect(existsSync(join(work, 'demo', 'reports', 'structured-output.html'))).toBe(true);
  }, 120_000);

  it('type-checks the consumer scenarios under the strictest settings (skipLibCheck: false), using every entry', async () => {
    const files = prepareConsumerTypes(repo, consumer);
    const source = readFileSync(join(consumer, 'consumer.ts'), 'utf8');
    for (const subpath of subpaths) {
      expect(source, subpath).toContain(`from 'loopchart${subpath.slice(1)}'`);
    }
    const found = await compileIn(repo, consumer, 'strict', files);
    const show = (list: typeof found) =>
      list.map((d) => `${d.file}(${d.where}): ${d.code} ${d.text}`);
    expect(show(found.filter(isOurs))).toEqual([]);
    // What remains is the peers' own: the same errors a file importing only xstate and ai gets.
    const baseline = await compileIn(repo, consumer, 'baseline', ['baseline.ts']);
    const key = (d: (typeof found)[number]) => `${d.file}(${d.where}) ${d.code}`;
    const known = new Set(baseline.map(key));
    expect(found.filter((d) => !isOurs(d) && !known.has(key(d))).map(key)).toEqual([]);
    console.log(
      `strict consumer (${files.length} files): 0 errors in loopchart's .d.ts or the consumer; ${baseline.length} in the peers' own .d.ts, as with a bare import of them`,
    );
    const lenient = { ...STRICT_CONSUMER, exactOptionalPropertyTypes: false, skipLibCheck: true };
    expect(show(await compileIn(repo, consumer, 'lenient', files, lenient))).toEqual([]);
  }, 120_000);

  it('publishes no explicit any in its .d.ts files', async () => {
    const dist = join(consumer, 'node_modules', 'loopchart', 'dist');
    const { stdout } = await sh(
      process.execPath,
      [join(repo, 'scripts/check-dts-any.mjs'), dist],
      work,
    );
    expect(stdout).toMatch(/declaration files, no explicit any/);
  });

  it('passes publint with no errors, warnings or suggestions', async () => {
    const { stdout } = await sh(bin('publint'), ['run', tarball, '--strict'], work);
    expect(stdout).toMatch(/^All good!$/m);
  }, 60_000);

  it('passes attw (are the types wrong) for an ESM-only package', async () => {
    // attw exits non-zero on any problem its esm-only profile does not ignore (node10, require()).
    const { stdout } = await sh(
      bin('attw'),
      [tarball, '--profile', 'esm-only', '--format', 'ascii', '--no-color', '--no-emoji'],
      work,
    );
    const rows = stdout.split('\n').filter((line) => /^(node16 \(from ESM\)|bundler):/.test(line));
    expect(rows.length).toBe(2 * subpaths.length + 2);
    for (const row of rows) expect(row).toMatch(/: (OK|\(JSON\))/);
  }, 60_000);
});
