import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LoopConfig, withCost } from 'loopchart';
import { certificateBadge, certifyLoop, certifyPipeline } from 'loopchart/analysis';
import { afterAll, describe, expect, it } from 'vitest';
import { captureIo } from '../../src/tools/cli/captureIo.js';
import { runCli } from '../../src/tools/cli/runCli.js';

// SPEC §15, done-when 4: a pipeline's certificate composes from its stages' (a diamond plan), and
// `loopchart certify <file>` prints every certificate a module's loops and pipelines have.

const loop = (id: string, maxRetries: number, attemptMs: number, cost: number): LoopConfig => ({
  id,
  maxRetries,
  attemptTimeoutMs: attemptMs,
  stepTimeoutMs: 100,
  retryDelayMs: 50,
  maxRetryDelayMs: 50,
  costEstimates: { attempt: cost, validate: 0 },
  attempt: () => withCost('draft', cost),
  validate: () => ({ valid: true }),
});

const stages = {
  plan: loop('plan', 0, 1000, 1),
  left: loop('left', 2, 4000, 3),
  right: loop('right', 1, 9000, 2),
  merge: loop('merge', 1, 2000, 5),
};
const diamond = {
  id: 'diamond',
  stages: [
    { id: 'merge', dependsOn: ['left', 'right'], loop: stages.merge },
    { id: 'left', dependsOn: ['plan'], loop: stages.left },
    { id: 'right', dependsOn: ['plan'], loop: stages.right },
    { id: 'plan', loop: stages.plan },
  ],
  crossCheck: () => ({ valid: true }),
  crossCheckTimeoutMs: 700,
};

describe('certifyPipeline', () => {
  it("composes a diamond plan from its stages' certificates", () => {
    const certificate = certifyPipeline(diamond);
    const each = Object.fromEntries(
      Object.entries(stages).map(([id, config]) => [id, certifyLoop(config)]),
    );
    expect(certificate.layers).toEqual([['plan'], ['left', 'right'], ['merge']]);
    expect(certificate.stages).toEqual(each);
    const all = Object.values(each);
    expect(certificate.calls.total).toBe(all.reduce((n, c) => n + (c.calls.total.value ?? 0), 0));
    expect(certificate.cost).toBe(all.reduce((n, c) => n + (c.cost.value ?? 0), 0));
    const time = (id: keyof typeof each) => each[id]?.timeMs.value ?? 0;
    // the stages of a layer run together: the slower of left and right counts, and one cross-check
    expect(certificate.timeMs).toBe(
      time('plan') + Math.max(time('left'), time('right')) + 700 + time('merge'),
    );
    expect(certificate.criticalPath).toEqual([
      'plan',
      time('left') >= time('right') ? 'left' : 'right',
      'merge',
    ]);
    expect(certificate.crossChecks).toBe(1);
    expect(time('right')).toBeGreaterThan(time('left'));
  });

  it('has no cost bound when a stage declares no costs', () => {
    const { costEstimates: _, ...bare } = stages.left;
    const certificate = certifyPipeline({ stages: [{ id: 'a', loop: bare }] });
    expect(certificate.cost).toBeNull();
    expect(certificate.stages.a?.cost.reason).toBe('no cost is declared for attempt, validate');
  });
});

describe('loopchart certify', () => {
  const dir = mkdtempSync(join(tmpdir(), 'loopchart-certify-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'loops.mjs');
  writeFileSync(
    file,
    `const loop = (id, maxRetries) => ({ id, maxRetries, attemptTimeoutMs: 2000, stepTimeoutMs: 500,
  costEstimates: { attempt: 0.02, validate: 0.001 }, attempt: () => 'x', validate: () => ({ valid: true }) });
export const loops = [loop('invoice', 2)];
export const pipelines = [{ id: 'report', stages: [{ id: 'a', loop: loop('a', 1) }, { id: 'b', dependsOn: ['a'], loop: loop('b', 0) }] }];
`,
  );

  async function cli(argv: string[]) {
    const capture = captureIo(false);
    const code = await runCli(argv, capture.io);
    return { code, stdout: capture.stdout(), stderr: capture.stderr() };
  }

  it("prints each loop's and pipeline's worst case with the paths that reach it", async () => {
    const { code, stdout } = await cli(['certify', file]);
    expect(code).toBe(0);
    const invoice = certifyLoop({
      id: 'invoice',
      maxRetries: 2,
      attemptTimeoutMs: 2000,
      stepTimeoutMs: 500,
      costEstimates: { attempt: 0.02, validate: 0.001 },
      attempt: () => 'x',
      validate: () => ({ valid: true }),
    });
    expect(stdout).toContain(`loop invoice: ${certificateBadge(invoice)}`);
    expect(stdout).toContain('pipeline report: worst case:');
    expect(stdout).toMatch(/calls: \d+ — attempt ok → validate/);
  });

  it('prints JSON that holds the certificates', async () => {
    const { code, stdout } = await cli(['certify', file, '--format', 'json']);
    expect(code).toBe(0);
    const [loopCertificate, pipeline] = JSON.parse(stdout);
    expect(loopCertificate.kind).toBe('loop');
    expect(pipeline.kind).toBe('pipeline');
    expect(pipeline.layers).toEqual([['a'], ['b']]);
  });

  it('exits 2 naming a file that cannot be imported', async () => {
    const { code, stderr } = await cli(['certify', join(dir, 'missing.mjs')]);
    expect(code).toBe(2);
    expect(stderr).toContain('could not be imported');
  });
});

describe('the run report', () => {
  it("shows the loop's certificate as a badge beside the run's name", async () => {
    const { renderRunReport } = await import('loopchart/viewer');
    const { runLoop } = await import('loopchart');
    const config = {
      ...stages.left,
      costEstimates: { attempt: 3, validate: 0, refine: 1 },
      refine: ({ input }: { input: unknown }) => input,
    };
    const outcome = await runLoop(config, 'memo');
    const page = await renderRunReport({ config, outcome });
    const badge = certificateBadge(certifyLoop(config));
    expect(badge).toMatch(/^worst case: \d+ calls, cost \d+, [\d.]+ (s|min)$/);
    expect(page).toContain(badge);
  });
});

describe('the live viewer', () => {
  it("badges a loop run with its chart's worst case from its first snapshot, and nothing else", async () => {
    const { applySnapshot } = await import('../../src/tools/viewer/runView.js');
    const { createActor } = await import('xstate');
    const { createLoopMachine } = await import('loopchart');
    const config = { ...stages.left, refine: ({ input }: { input: unknown }) => input };
    const actor = createActor(createLoopMachine(config), { input: { input: 'memo' } });
    const snapshot = JSON.parse(JSON.stringify(actor.getSnapshot()));
    const view = {
      id: 'x:0',
      label: 'left #1',
      machineId: 'left',
      status: 'active' as const,
      connected: true,
      trace: [],
      startedAt: 0,
      updatedAt: 0,
      eventCount: 0,
      droppedEvents: 0,
      recentEvents: [],
    };
    const { costEstimates: _, ...withoutCosts } = config;
    expect(applySnapshot(view, snapshot).worstCase).toBe(
      certificateBadge(certifyLoop(withoutCosts)),
    );
    const hostile = {
      ...snapshot,
      context: { settings: { ...snapshot.context.settings, maxAttempts: 1e9 } },
    };
    expect(applySnapshot(view, hostile).worstCase).toBeUndefined();
    expect(
      applySnapshot(view, { status: 'active', context: { count: 1 } }).worstCase,
    ).toBeUndefined();
  });
});
