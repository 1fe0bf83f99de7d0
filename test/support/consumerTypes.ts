import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
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
  verbatimModuleSyntax: true,
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

/** The consumer scenarios of test/consumer, by file name (consumer.ts uses every entry). */
export function consumerFiles(repo: string): string[] {
  return readdirSync(join(repo, 'test/consumer')).filter((name) => name.endsWith('.ts'));
}

/**
 * The peers the scenarios import (and loopchart's .d.ts with them), and the baseline file that
 * imports only them, so their own .d.ts problems show apart from loopchart's.
 */
const PEERS = [
  'xstate',
  'zod',
  'ai',
  'pg',
  'fast-check',
  'expect-type',
  '@dbos-inc/dbos-sdk',
  '@modelcontextprotocol/sdk',
  '@opentelemetry/api',
  '@statelyai/inspect',
];
const BASELINE = `import { setup } from 'xstate';
import { generateText } from 'ai';
import { z } from 'zod';
import pg from 'pg';
import fc from 'fast-check';
import { expectTypeOf } from 'expect-type';
import { DBOS } from '@dbos-inc/dbos-sdk';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { trace } from '@opentelemetry/api';
import { createWebSocketInspector } from '@statelyai/inspect';
export const used = [setup, generateText, z, pg, fc, expectTypeOf, DBOS, McpServer, StdioServerTransport, trace, createWebSocketInspector];
`;

/**
 * Puts the consumer files and the baseline beside a consumer project (an ESM package) whose
 * node_modules holds loopchart: the peers the scenarios use and the type packages a Node project
 * has (`@types/node`, `@types/pg`) are borrowed from this checkout, where missing.
 */
export function prepareConsumerTypes(repo: string, dir: string): string[] {
  const files = consumerFiles(repo);
  for (const file of files) copyFileSync(join(repo, 'test/consumer', file), join(dir, file));
  writeFileSync(join(dir, 'baseline.ts'), BASELINE);
  const pkg = join(dir, 'package.json');
  if (!existsSync(pkg)) writeFileSync(pkg, JSON.stringify({ name: 'consumer', type: 'module' }));
  for (const name of [...PEERS, '@types/node', '@types/pg']) {
    const target = join(dir, 'node_modules', name);
    if (existsSync(target)) continue;
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(join(repo, 'node_modules', name), target, 'dir');
  }
  return files;
}

/**
 * Emits loopchart's declarations from this checkout's sources into `dir`'s node_modules, with
 * its package.json, as an installed package would hold them (types only: nothing runs).
 */
export async function installDeclarations(repo: string, dir: string): Promise<void> {
  const target = join(dir, 'node_modules', 'loopchart');
  mkdirSync(target, { recursive: true });
  copyFileSync(join(repo, 'package.json'), join(target, 'package.json'));
  const tsc = join(repo, 'node_modules/typescript/bin/tsc');
  const flags = ['--emitDeclarationOnly', '--declarationMap', 'false', '--sourceMap', 'false'];
  const out = ['--outDir', join(target, 'dist')];
  await run(process.execPath, [tsc, '-p', join(repo, 'tsconfig.build.json'), ...flags, ...out]);
}

/** True for a diagnostic in a consumer file or in loopchart's published types. */
export function isOurs(d: Diagnostic): boolean {
  return !d.file.includes('node_modules/') || d.file.includes('node_modules/loopchart/');
}

/**
 * The probes of the consumer files: each `// @ts-expect-error TSnnnn why` line, the line after it
 * and the code it expects. Compiled without the directive, that line must fail with that code.
 */
export function probesOf(dir: string, files: readonly string[]) {
  return files.flatMap((file) =>
    readFileSync(join(dir, file), 'utf8')
      .split('\n')
      .flatMap((line, index) => {
        const match = /\/\/ @ts-expect-error (TS\d+) (.*)$/.exec(line);
        return match
          ? [{ file, line: index + 2, code: String(match[1]), why: String(match[2]) }]
          : [];
      }),
  );
}

/** Writes `file` without its `@ts-expect-error` directives, as `<name>.bare.ts`. */
export function withoutDirectives(dir: string, file: string): string {
  const bare = file.replace(/\.ts$/, '.bare.ts');
  const text = readFileSync(join(dir, file), 'utf8');
  writeFileSync(join(dir, bare), text.replaceAll('// @ts-expect-error ', '// probe '));
  return bare;
}
