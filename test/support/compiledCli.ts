import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileLibrary, removeLibrary } from './compileLibrary.js';

/** The loops of reviewLoops.ts, as the module a user passes to `--loops`. */
const loopsModule = (lib: string) => `
import { clarificationRequest } from ${JSON.stringify(join(lib, 'entries/index.js'))};
export const loops = [
  { id: 'draft', attempt: ({ input }) => 'draft of ' + input, validate: () => ({ valid: true }), review: { beforeProceed: true } },
  { id: 'ask', attempt: ({ answers }) => answers.length === 0 ? clarificationRequest({ question: 'Which year?', options: ['2025', '2026'] }) : 'report for ' + answers[0].answer, validate: () => ({ valid: true }) },
];
`;

/**
 * This checkout's CLI compiled for child processes, with a `--loops` module registering the
 * loops of reviewLoops.ts. `remove()` deletes it.
 * @example const cli = compiledCli('mcp'); spawn(process.execPath, [cli.main, 'mcp', '--loops', cli.loops]);
 */
export function compiledCli(label: string) {
  const build = compileLibrary(label, [
    'entries/index.ts',
    'entries/cli.ts',
    'entries/mcp.ts',
    'entries/sqlite.ts',
  ]);
  // The CLI reads its version from the package.json above its folder.
  copyFileSync(new URL('../../package.json', import.meta.url), join(build.base, 'package.json'));
  const loops = join(build.base, 'loops.mjs');
  writeFileSync(loops, loopsModule(build.lib));
  return {
    main: join(build.lib, 'entries/cli.js'),
    loops,
    remove: () => removeLibrary(build.base),
  };
}
