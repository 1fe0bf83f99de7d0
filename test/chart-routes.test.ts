import { readFileSync } from 'node:fs';
import { compileLoop } from 'loopchart';
import { describe, expect, it } from 'vitest';
import { correctable, valid } from './support/scriptedSteps.js';

const MACHINE_FILE = new URL('../src/core/chart/loopMachine.ts', import.meta.url);

/** The routing rows written as a comment in loopMachine.ts (the lines indented under the note). */
function rowsInMachineFile(): string {
  const source = readFileSync(MACHINE_FILE, 'utf8');
  return source
    .split('\n')
    .filter((line) => line.startsWith('  //   '))
    .map((line) => line.slice('  //   '.length))
    .join('\n');
}

describe('the routing rows, readable where the chart is defined', () => {
  it('the rows loopMachine.ts shows are those of the default config', () => {
    const plan = compileLoop({ attempt: () => 'draft', validate: () => valid });
    expect(rowsInMachineFile()).toBe(plan.routes);
  });

  it("a config's plan prints its own rows: a fallback, a budget and a review add theirs", () => {
    const routes = compileLoop({
      attempt: () => 'draft',
      validate: () => correctable('again'),
      fallback: () => 'plan b',
      maxCost: 10,
      review: { beforeProceed: true },
    }).routes;
    expect(routes).toContain('reviewBeforeProceed → awaitingReview');
    expect(routes).toMatch(/refineWouldPassCostBudget +→ budget_stop/);
    expect(routes).toMatch(/otherwise +→ fallingBack\nfailed:/);
  });

  it('the rows are the transitions the chart takes, in order', () => {
    const plan = compileLoop({ attempt: () => 'draft', validate: () => valid, maxRetries: 0 });
    const routing = plan.chart.states.routing?.config.always as {
      guard?: string;
      target: string;
    }[];
    const printed = plan.routes.split('routing:\n')[1]?.split(/\n\S/)[0] ?? '';
    expect(printed.split('\n').map((line) => line.trim().split(/ +→ /))).toEqual(
      routing.map((row) => [row.guard ?? 'otherwise', row.target]),
    );
    expect(plan.routes).not.toContain('refining');
  });
});
