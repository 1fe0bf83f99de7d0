/**
 * Every ```ts block in README.md and docs/ type-checks against the library's sources, as a user
 * would paste it (a hidden `<!-- prelude … -->` declares what a fragment assumes is in scope).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { docBlocks, docPages } from './support/docBlocks.js';

const root = join(import.meta.dirname, '..');
const out = join(root, '.build', 'doc-blocks');

it('type-checks every TypeScript block of the README and docs/', async () => {
  const blocks = docBlocks(root);
  expect(blocks.length).toBeGreaterThan(10);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const names = blocks.map((block, i) => {
    const name = `${block.file.replace(/[/.]/g, '_')}_${block.line}_${i}.ts`;
    // A block imports the repo's examples as a file one folder below the root would (test/, docs/).
    const code = block.code.replaceAll("from '../", "from '../../");
    writeFileSync(join(out, name), `${code}\nexport {};\n`);
    return name;
  });
  writeFileSync(
    join(out, 'tsconfig.json'),
    JSON.stringify({
      extends: '../../tsconfig.base.json',
      compilerOptions: {
        noEmit: true,
        noUnusedLocals: false,
        paths: {
          loopchart: ['../../src/entries/index.ts'],
          'loopchart/*': ['../../src/entries/*.ts'],
        },
      },
      files: names,
    }),
  );
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = await promisify(execFile)(process.execPath, [tsc, '-p', out], { cwd: out }).then(
    () => '',
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
  // Point each error at the page and line it came from.
  const located = result.replace(
    /^(\S+?)_(\d+)_\d+\.ts\((\d+),\d+\)/gm,
    (_, file, line, row) =>
      `${String(file)
        .replace(/_md$/, '.md')
        .replace(/^docs_/, 'docs/')}:${Number(line) + Number(row)}`,
  );
  expect(located).toBe('');
}, 60_000);

const pages = docPages(root);

describe('the README and docs/', () => {
  it('keep the README to a five-minute read: at most 250 lines', () => {
    const lines = readFileSync(join(root, 'README.md'), 'utf8').trimEnd().split('\n').length;
    expect(lines).toBeLessThanOrEqual(250);
  });

  it('never cite the spec, a file the package does not ship', () => {
    const citing = pages.filter((page) =>
      /spec §|SPEC\.md|\bSPEC\b/i.test(readFileSync(join(root, page), 'utf8')),
    );
    expect(citing).toEqual([]);
  });

  it('link only to docs/ pages and files that exist (or to the web)', () => {
    const broken = pages.flatMap((page) =>
      [...readFileSync(join(root, page), 'utf8').matchAll(/\]\(([^)\s]+)\)/g)]
        .map((match) => String(match[1]))
        .filter((target) => !/^(https?:|#)/.test(target))
        .filter((target) => {
          const file = join(root, dirname(page), target.split('#')[0] ?? '');
          return !file.startsWith(join(root, 'docs')) || !existsSync(file);
        })
        .map((target) => `${page}: ${target}`),
    );
    expect(broken).toEqual([]);
  });
  it('name each export on the entry that holds it, in the entries tables', () => {
    const peers = Object.keys(
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).peerDependencies,
    );
    const misplaced = ['README.md', 'docs/entries.md'].flatMap((page) =>
      readFileSync(join(root, page), 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('| `loopchart/'))
        .flatMap((row) => {
          const [entries = '', holds = ''] = row.split(' | ');
          const sources = [...entries.matchAll(/`loopchart\/(\w+)`/g)].map((m) =>
            readFileSync(join(root, 'src', 'entries', `${m[1]}.ts`), 'utf8'),
          );
          return [...holds.matchAll(/`([A-Za-z_$][\w$]*)`/g)]
            .map((m) => String(m[1]))
            .filter((name) => !peers.includes(name))
            .filter((name) => !sources.some((source) => new RegExp(`\\b${name}\\b`).test(source)))
            .map((name) => `${page}: ${name} is not on ${entries.replace('| ', '')}`);
        }),
    );
    expect(misplaced).toEqual([]);
  });
});
