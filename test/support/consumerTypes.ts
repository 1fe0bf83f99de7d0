import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The strictest settings a consumer may have; `skipLibCheck: false` checks every .d.ts it loads. */
export const STRICT_CONSUMER = {
  target: 'es2022',
  module: 'nodenext',
  moduleResolution: 'nodenext',
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  skipLibCheck: false,
  noEmit: true,
  types: ['node'],
};

/** One tsc diagnostic, as `file(line,col): TScode`, the file relative to the project. */
export interface Diagnostic {
  file: string;
  where: string;
  code: string;
  text: string;
}

/** Compiles `files` in `dir` with `options`; resolves to the diagnostics (none when it compiles). */
export async function compileIn(
  repo: string,
  dir: string,
  name: string,
  files: string[],
  options: Record<string, unknown> = STRICT_CONSUMER,
): Promise<Diagnostic[]> {
  const project = join(dir, `tsconfig.${name}.json`);
  writeFileSync(project, JSON.stringify({ compilerOptions: options, files }, null, 2));
  const tsc = join(repo, 'node_modules/typescript/bin/tsc');
  const { stdout } = await run(process.execPath, [tsc, '-p', project, '--pretty', 'false'], {
    cwd: dir,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return stdout
    .split('\n')
    .map((line) => /^(.+?)\((\d+,\d+)\): error (TS\d+): (.*)$/.exec(line))
    .filter((match) => match !== null)
    .map(([, file = '', where = '', code = '', text = '']) => ({ file, where, code, text }));
}

/**
 * Puts the consumer file and a baseline beside an installed consumer project: the baseline
 * imports only the peers (xstate, ai), so their own .d.ts problems show apart from loopchart's.
 * The type packages a Node project has (`@types/node`, and `@types/pg` for `loopchart/postgres`)
 * are borrowed from this checkout.
 */
export function prepareConsumerTypes(repo: string, dir: string) {
  copyFileSync(join(repo, 'test/consumer/consumer.ts'), join(dir, 'consumer.ts'));
  writeFileSync(
    join(dir, 'baseline.ts'),
    "import { setup } from 'xstate';\nimport { generateText } from 'ai';\nexport const used = [setup, generateText];\n",
  );
  mkdirSync(join(dir, 'node_modules/@types'), { recursive: true });
  for (const types of ['node', 'pg']) {
    const target = join(dir, 'node_modules/@types', types);
    if (!existsSync(target)) symlinkSync(join(repo, 'node_modules/@types', types), target, 'dir');
  }
}

/** True for a diagnostic in the consumer's own file or in loopchart's published types. */
export const isOurs = (d: Diagnostic) =>
  d.file === 'consumer.ts' || d.file.includes('node_modules/loopchart/');
