/**
 * The worst case in the diagram: `toMermaid(machine, { certificate })` and `loopchart diagram
 * --certificate` add a note beside the first state with the certificate's bounds.
 */
import { createLoopMachine, type LoopConfig } from 'loopchart';
import { certifyLoop, certifyPipeline, formatMs, toMermaid } from 'loopchart/analysis';
import { describe, expect, it } from 'vitest';
import { captureIo } from '../../src/tools/cli/captureIo.js';
import { diagramConfig } from '../../src/tools/cli/commands/diagram.js';
import { runCli } from '../../src/tools/cli/runCli.js';

const config: LoopConfig<string, string> = {
  attempt: ({ input }) => input,
  validate: () => ({ valid: true }),
  refine: ({ candidate }) => candidate,
  maxRetries: 2,
  costEstimates: { attempt: 0.04, validate: 0.002, refine: 0.03 },
  attemptTimeoutMs: 20_000,
  stepTimeoutMs: 5_000,
};

const notes = (mermaid: string) => mermaid.split('\n').filter((line) => /\bnote\b/.test(line));

describe('the certificate in the diagram', () => {
  it("toMermaid shows the loop's bounds as a note beside its first state", () => {
    const certificate = certifyLoop(config);
    const { calls, cost, timeMs } = certificate;
    const mermaid = toMermaid(createLoopMachine(config), { certificate });
    expect(notes(mermaid)).toEqual([
      `  note left of attempting : worst case — ${calls.attempt.value} attempts, ${calls.total.value} step calls, cost ${cost.value}, ${formatMs(timeMs.value as number)}`,
    ]);
    // the numbers are this loop's: fewer retries, fewer attempts in the note
    const fewer = certifyLoop({ ...config, maxRetries: 0 });
    expect(fewer.calls.attempt.value).toBeLessThan(calls.attempt.value as number);
    expect(
      notes(toMermaid(createLoopMachine({ ...config, maxRetries: 0 }), { certificate: fewer }))[0],
    ).toContain(`— ${fewer.calls.attempt.value} attempts`);
    // without the option, no note (the README's diagram is unchanged)
    expect(notes(toMermaid(createLoopMachine(config)))).toEqual([]);
  });

  it('says unbounded where nothing bounds a metric, and takes a pipeline certificate', () => {
    const loose = { attempt: () => 'x', validate: () => ({ valid: true }) as const };
    const certificate = certifyLoop(loose);
    expect(certificate.cost.value).toBeNull();
    expect(notes(toMermaid(createLoopMachine(loose), { certificate }))[0]).toContain(
      'cost unbounded',
    );
    const pipeline = certifyPipeline({ stages: [{ id: 'a', loop: config }] });
    expect(notes(toMermaid(createLoopMachine(config), { certificate: pipeline }))[0]).toContain(
      `— ${pipeline.calls.attempt} attempts, ${pipeline.calls.total} step calls`,
    );
  });

  it('loopchart diagram --certificate prints the note of certifyLoop of the flags’ loop', async () => {
    const capture = captureIo(false);
    const code = await runCli(['diagram', '--max-retries', '1', '--certificate'], capture.io);
    expect(code).toBe(0);
    const certificate = certifyLoop(diagramConfig({ maxRetries: 1 }));
    expect(notes(capture.stdout())).toEqual([
      `  note left of attempting : worst case — ${certificate.calls.attempt.value} attempts, ${certificate.calls.total.value} step calls, cost unbounded, ${formatMs(certificate.timeMs.value as number)}`,
    ]);
    const plain = captureIo(false);
    await runCli(['diagram', '--max-retries', '1'], plain.io);
    expect(notes(plain.stdout())).toEqual([]);
  });
});
