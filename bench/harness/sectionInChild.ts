import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchFigures } from './BenchSection.js';

/** The flag bench/main.ts is started with in a section's own process. */
export const CHILD_FLAG = '--section-child';

/**
 * Runs one section in a fresh node process (this script again, with `--expose-gc`) and returns
 * its figures. A section measured after others inherits their heap, their JIT profiles and
 * whatever they left running (DBOS's pollers, open sockets): in one process the same loop
 * measured up to 40% slower after the other sections than alone.
 */
export async function sectionInChild(
  script: string,
  name: string,
  quick: boolean,
): Promise<BenchFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'loopchart-bench-'));
  const out = join(dir, 'figures.json');
  try {
    const args = ['--expose-gc', script, name, CHILD_FLAG, out, ...(quick ? ['--quick'] : [])];
    // the section's progress lines go to stderr as they come; its stdout holds nothing else
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (exitCode) => resolve(exitCode));
    });
    // a process killed (out of memory, a signal) writes nothing: its exit code is all there is
    if (!existsSync(out)) throw new Error(`the ${name} section's process exited with ${code}`);
    const result = JSON.parse(readFileSync(out, 'utf8')) as
      | { figures: BenchFigures }
      | { error: string };
    if ('error' in result) throw new Error(result.error);
    if (code !== 0) throw new Error(`the ${name} section's process exited with ${code}`);
    return result.figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
