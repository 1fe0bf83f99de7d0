import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const BUILD_WAIT_MS = 120_000;

/**
 * Entry points of src compiled for child processes, in a fresh folder under .build, so they run
 * this checkout as plain JavaScript without a prior `npm run build` (and without racing one). It
 * only emits (`--noCheck`): `npm test` checks the types. Within one vitest run all of src is
 * compiled once, by the first file that asks, and each caller gets its own copy of it. Returns the
 * folder and the library in it; remove the folder with `removeLibrary`.
 * @example const { lib } = compileLibrary('crash', ['entries/index.ts', 'entries/sqlite.ts']);
 */
export function compileLibrary(
  label: string,
  entries: readonly string[] = ['entries/index.ts'],
): { base: string; lib: string } {
  mkdirSync(join(root, '.build'), { recursive: true });
  const base = mkdtempSync(join(root, '.build', `${label}-`));
  const lib = join(base, 'lib');
  const shared = inject('suiteBuild');
  if (shared) cpSync(sharedLibrary(shared), lib, { recursive: true });
  else emit(base, { files: entries.map((entry) => join(root, 'src', entry)) });
  for (const entry of entries) {
    if (!existsSync(join(lib, entry.replace(/\.ts$/, '.js')))) {
      throw new Error(`compiling src emitted no ${entry.replace(/\.ts$/, '.js')}`);
    }
  }
  return { base, lib };
}

export function removeLibrary(base: string): void {
  rmSync(base, { recursive: true, force: true });
}

/** Compiles src (these files, or all of it) into `<base>/lib`; throws when it emitted no entry. */
function emit(base: string, sources: { files: string[] } | { include: string[] }): string {
  const lib = join(base, 'lib');
  const tsconfig = join(base, 'tsconfig.json');
  writeFileSync(
    tsconfig,
    JSON.stringify({
      extends: join(root, 'tsconfig.base.json'),
      compilerOptions: { rootDir: join(root, 'src'), outDir: lib, sourceMap: false, noCheck: true },
      ...sources,
    }),
  );
  const tsc = spawnSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', tsconfig],
    {
      encoding: 'utf8',
    },
  );
  if (!existsSync(join(lib, 'entries/index.js'))) {
    throw new Error(`compiling src emitted no entries/index.js:\n${tsc.stdout}\n${tsc.stderr}`);
  }
  return lib;
}

/**
 * The library compiled once for this vitest run in `folder`: the first caller to create
 * `<folder>/lock` compiles every entry, the others wait for `<folder>/done` (or `failed`).
 */
function sharedLibrary(folder: string): string {
  const lib = join(folder, 'lib');
  const done = join(folder, 'done');
  const failed = join(folder, 'failed');
  mkdirSync(folder, { recursive: true });
  try {
    mkdirSync(join(folder, 'lock'));
  } catch {
    const until = Date.now() + BUILD_WAIT_MS;
    while (!existsSync(done)) {
      if (existsSync(failed)) throw new Error(readFileSync(failed, 'utf8'));
      if (Date.now() > until)
        throw new Error(`no compiled library in ${folder} after ${BUILD_WAIT_MS} ms`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
    return lib;
  }
  try {
    emit(folder, { include: [join(root, 'src')] });
    writeFileSync(done, '');
  } catch (error) {
    writeFileSync(failed, error instanceof Error ? error.message : String(error));
    throw error;
  }
  return lib;
}
