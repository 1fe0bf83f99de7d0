import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where compileLibrary compiles src once for this run (only when a file asks for it). */
    suiteBuild: string;
  }
}

/**
 * vitest globalSetup: names a folder for this run's one compiled copy of src (see
 * compileLibrary.ts) and removes it when the run ends.
 */
export default function setup(project: TestProject) {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const folder = join(root, '.build', `suite-${process.pid}-${Date.now().toString(36)}`);
  project.provide('suiteBuild', folder);
  return () => rmSync(folder, { recursive: true, force: true });
}
