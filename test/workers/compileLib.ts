import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Compiles the core and `loopchart/postgres` from src into a fresh folder under .build, so child
 * processes run this checkout without a prior `npm run build` (and without racing one).
 * Returns the folder and the compiled library in it.
 */
export function compileLib(label: string): { base: string; lib: string } {
  mkdirSync(join(root, '.build'), { recursive: true });
  const base = mkdtempSync(join(root, '.build', `${label}-`));
  const lib = join(base, 'lib');
  const tsconfig = join(base, 'tsconfig.json');
  writeFileSync(
    tsconfig,
    JSON.stringify({
      extends: join(root, 'tsconfig.base.json'),
      compilerOptions: { rootDir: join(root, 'src'), outDir: lib, sourceMap: false },
      files: [join(root, 'src/index.ts'), join(root, 'src/postgres/index.ts')],
    }),
  );
  try {
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', tsconfig]);
  } catch {
    // Type errors elsewhere in a shared checkout still emit JavaScript; the check below decides.
  }
  if (!existsSync(join(lib, 'postgres', 'index.js'))) {
    throw new Error(`compiling src into ${lib} emitted no postgres/index.js`);
  }
  return { base, lib };
}

/** The test/workers folder, where the child scripts live. */
export const workersDir = join(root, 'test', 'workers');
