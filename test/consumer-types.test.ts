/**
 * The consumer type test: ten apps a user would write (test/consumer/*.ts: structured output, an
 * app actor, path tests, crash and resume, a pipeline whose stage pauses, the inspector,
 * Postgres, an agent, DBOS, serve and MCP) compiled against the declarations built from src, as
 * an installed package holds them, under the strictest consumer settings (`strict`,
 * `exactOptionalPropertyTypes`, `noUncheckedIndexedAccess`, `verbatimModuleSyntax`,
 * `skipLibCheck: false`). Their `expectTypeOf` and `@ts-expect-error` probes pin each type a user
 * relies on. test/package.test.ts compiles the same files against the packed tarball.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compileIn,
  type Diagnostic,
  installDeclarations,
  isOurs,
  prepareConsumerTypes,
  probesOf,
  STRICT_CONSUMER,
  withoutDirectives,
} from './support/consumerTypes.js';

const repo = join(import.meta.dirname, '..');
let dir: string;
let files: string[];

const show = (list: Diagnostic[]) => list.map((d) => `${d.file}(${d.where}): ${d.code} ${d.text}`);
const key = (d: Diagnostic) => `${d.file}(${d.where}) ${d.code}`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loopchart-consumer-'));
  await installDeclarations(repo, dir);
  files = prepareConsumerTypes(repo, dir);
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a strict consumer of the published declarations', () => {
  it('compiles the ten scenarios and every probe in them', async () => {
    expect(files.length).toBeGreaterThanOrEqual(11);
    const found = await compileIn(repo, dir, 'strict', files);
    expect(show(found.filter(isOurs))).toEqual([]);
    // What remains is the peers' own: the errors a file importing only them gets too.
    const baseline = await compileIn(repo, dir, 'baseline', ['baseline.ts']);
    const theirs = found.filter((d) => !isOurs(d)).map(key);
    expect(theirs.filter((k) => !baseline.map(key).includes(k))).toEqual([]);
  }, 300_000); // two full strict compiles of every peer's declarations: generous on a busy machine

  it('has probes that bite: each @ts-expect-error line fails with its code without the directive', async () => {
    const probes = probesOf(dir, files);
    expect(probes.length).toBeGreaterThanOrEqual(12);
    const bare = files.map((file) => withoutDirectives(dir, file));
    // Only where each probe fails matters here: the libraries were checked above.
    const found = await compileIn(repo, dir, 'bare', bare, {
      ...STRICT_CONSUMER,
      skipLibCheck: true,
    });
    const missed = probes.filter(
      (probe) =>
        !found.some(
          (d) =>
            d.file === probe.file.replace(/\.ts$/, '.bare.ts') &&
            d.where.startsWith(`${probe.line},`) &&
            d.code === probe.code,
        ),
    );
    expect(missed.map((p) => `${p.file}:${p.line} ${p.code} ${p.why}`)).toEqual([]);
  }, 120_000);
});
