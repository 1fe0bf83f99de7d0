import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Compiles entry points of src into a fresh folder under .build, so child processes run this
 * checkout as plain JavaScript without a prior `npm run build` (and without racing one). It only
 * emits (`--noCheck`): `npm test` checks the types. Returns the folder and the library in it;
 * remove the folder with `removeLibrary`.
 * @example const { lib } = compileLibrary('crash', ['index.ts', 'sqlite/index.ts']);
 */
export function compileLibrary(
  label: string,
  entries: readonly string[] = ['index.ts'],
): { base: string; lib: string } {
  mkdirSync(join(root, '.build'), { recursive: true });
  const base = mkdtempSync(join(root, '.build', `${label}-`));
  const lib = join(base, 'lib');
  const tsconfig = join(base, 'tsconfig.json');
  writeFileSync(
    tsconfig,
    JSON.stringify({
      extends: join(root, 'tsconfig.base.json'),
      compilerOptions: { rootDir: join(root, 'src'), outDir: lib, sourceMap: false, noCheck: true },
      files: entries.map((entry) => join(root, 'src', entry)),
    }),
  );
  const tsc = spawnSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', tsconfig],
    {
      encoding: 'utf8',
    },
  );
  for (const entry of entries) {
    const emitted = entry.replace(/\.ts$/, '.js');
    if (!existsSync(join(lib, emitted))) {
      throw new Error(`compiling src emitted no ${emitted}:\n${tsc.stdout}\n${tsc.stderr}`);
    }
  }
  return { base, lib };
}

export function removeLibrary(base: string): void {
  rmSync(base, { recursive: true, force: true });
}
