import { readFileSync, writeFileSync } from 'node:fs';
import { createLoopMachine } from 'loopchart';
import { toMachineJson, toMermaid } from 'loopchart/analysis';
import { describe, expect, it } from 'vitest';
import { captureIo } from '../src/tools/cli/captureIo.js';
import { diagramConfig } from '../src/tools/cli/commands/diagram.js';
import { runCli } from '../src/tools/cli/runCli.js';

const README = new URL('../docs/diagram.md', import.meta.url);
const SECTION =
  /(<!-- section:diagram -->[\s\S]*?```mermaid\n)([\s\S]*?)(```[\s\S]*?<!-- \/section:diagram -->)/;

const cli = async (...argv: string[]) => {
  const capture = captureIo();
  const code = await runCli(argv, capture.io);
  return { code, stdout: capture.stdout(), stderr: capture.stderr() };
};

describe('the loop diagram of docs/diagram.md', () => {
  it('is exactly what `loopchart diagram` prints for the default loop (LOOPCHART_UPDATE_README=1 rewrites it)', async () => {
    const generated = (await cli('diagram')).stdout;
    expect(generated).toBe(toMermaid(createLoopMachine(diagramConfig({}))));
    const readme = readFileSync(README, 'utf8');
    if (process.env.LOOPCHART_UPDATE_README === '1') {
      writeFileSync(
        README,
        readme.replace(SECTION, (_all, head, _old, tail) => `${head}${generated}${tail}`),
      );
    }
    const block = SECTION.exec(readFileSync(README, 'utf8'))?.[2];
    expect(block, 'docs/diagram.md section "diagram" has a ```mermaid block').toBeDefined();
    expect(block).toBe(generated);
  });
});

describe('loopchart diagram', () => {
  it('prints the JSON of the machine the flags describe', async () => {
    const { code, stdout } = await cli(
      'diagram',
      '--format',
      'json',
      '--max-retries',
      '5',
      '--fallback',
      '--max-cost',
      '2',
    );
    expect(code).toBe(0);
    const json = JSON.parse(stdout);
    expect(json).toEqual(
      toMachineJson(
        createLoopMachine(diagramConfig({ maxRetries: 5, fallback: true, maxCost: 2 })),
      ),
    );
    const keys = json.nodes.map((node: { key: string }) => node.key);
    expect(keys).toEqual(expect.arrayContaining(['fallingBack', 'fallback', 'budget_stop']));
  });

  it('shapes the chart like createLoopMachine does: no refining without retries, review states when asked', async () => {
    const none = (await cli('diagram', '--max-retries', '0')).stdout;
    expect(none).not.toMatch(/refining/);
    const review = (
      await cli('diagram', '--review', 'both', '--idempotent', '--no-stall', '--direction', 'LR')
    ).stdout;
    expect(review).toMatch(/class awaitingClarification,awaitingReview waitsForHuman/);
    expect(review).not.toMatch(/hasUnknownEffect|isStalled/);
    expect(review).toMatch(/^ {2}direction LR$/m);
  });

  it('rejects a config the loop would reject, naming the field, with exit code 2', async () => {
    const { code, stderr } = await cli('diagram', '--max-retries', '99');
    expect(code).toBe(2);
    expect(stderr).toMatch(/--max-retries.*0 to 50/);
    expect((await cli('diagram', '--format', 'png')).code).not.toBe(0);
  });
});
