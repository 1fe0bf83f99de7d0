import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Compiles the current `src` with tsc into a private folder under node_modules/.cache (so its bare
 * imports resolve) and returns that folder. A child process can then import the library as plain
 * JavaScript without depending on a possibly stale `dist`. Remove it with `removeLibrary`.
 */
export function compileLibrary(name: string): string {
  const outDir = `${root}node_modules/.cache/loopchart-reliability/${name}-${process.pid}/`;
  mkdirSync(outDir, { recursive: true });
  const tsc = spawnSync(
    process.execPath,
    [
      `${root}node_modules/typescript/bin/tsc`,
      ...['-p', `${root}tsconfig.build.json`, '--outDir', outDir],
      ...['--declaration', 'false', '--declarationMap', 'false', '--sourceMap', 'false'],
      '--noCheck', // emit only: `npx tsc` checks the types, and errors would not stop the emit
    ],
    { cwd: root, encoding: 'utf8' },
  );
  if (!existsSync(`${outDir}index.js`)) {
    throw new Error(`tsc emitted no ${outDir}index.js:\n${tsc.stdout}\n${tsc.stderr}`);
  }
  return outDir;
}

export function removeLibrary(outDir: string): void {
  rmSync(outDir, { recursive: true, force: true });
}
