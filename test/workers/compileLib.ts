import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Compiles entry points of src (by default the core and `loopchart/postgres`) into a fresh folder
 * under .build, so child processes run this checkout without a prior `npm run build` (and without
 * racing one). Returns the folder and the compiled library in it.
 */
export function compileLib(
  label: string,
  entries: readonly string[] = ['index.ts', 'postgres/index.ts'],
): { base: string; lib: string } {
  mkdirSync(join(root, '.build'), { recursive: true });
  const base = mkdtempSync(join(root, '.build', `${label}-`));
  const lib = join(base, 'lib');
  const tsconfig = join(base, 'tsconfig.json');
  writeFileSync(
    tsconfig,
    JSON.stringify({
      extends: join(root, 'tsconfig.base.json'),
      compilerOptions: { rootDir: join(root, 'src'), outDir: lib, sourceMap: false },
      files: entries.map((entry) => join(root, 'src', entry)),
    }),
  );
  try {
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', tsconfig]);
  } catch {
    // Type errors elsewhere in a shared checkout still emit JavaScript; the check below decides.
  }
  for (const entry of entries) {
    const emitted = entry.replace(/\.ts$/, '.js');
    if (!existsSync(join(lib, emitted))) throw new Error(`compiling src emitted no ${emitted}`);
  }
  return { base, lib };
}

/** The test/workers folder, where the child scripts live. */
export const workersDir = join(root, 'test', 'workers');
