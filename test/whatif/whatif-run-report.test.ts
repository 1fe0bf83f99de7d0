import { describe, expect, it } from 'vitest';
import { createLoopMachine } from '../../src/core/chart/compileLoop.js';
import { runLoopMachine } from '../../src/runners/loop/runLoop.js';
import { runWhatIfLines } from '../../src/tools/viewer/runWhatIf.js';
import { renderRunReport } from '../../src/tools/viewer/writeRunReport.js';
import { planned } from './plannedLoop.js';

describe("a run report's What if panel", () => {
  it('re-decides the reported run under each candidate: exact, or unknown with the step and reason', async () => {
    const machine = createLoopMachine(planned('ccv'));
    const outcome = await runLoopMachine(machine, 'task');
    expect(outcome.status).toBe('proceed');
    const candidates = [{ maxRetries: 1, fallback: false }, { maxRetries: 1 }, { maxCost: 5 }];
    expect(runWhatIfLines(machine, outcome, candidates)).toEqual([
      {
        candidate: 'maxRetries=1 fallback=false',
        text: 'proceed → iteration_exhausted; attempts 3 → 2; cost 9 → 6',
      },
      {
        candidate: 'maxRetries=1',
        text: 'unknown beyond step 5: it would run the fallback where the run decided refine',
      },
      { candidate: 'maxCost=5', text: 'proceed → budget_stop; attempts 3 → 2; cost 9 → 5' },
    ]);
    const html = await renderRunReport({ machine, outcome, whatIf: candidates });
    expect(html).toContain('proceed → iteration_exhausted; attempts 3 → 2; cost 9 → 6');
  });

  it('a run that ended on a failure is unknown from that step: the outcome keeps no effect or delay', async () => {
    const machine = createLoopMachine({
      ...planned('v'),
      attempt: () => {
        throw new Error('the invoice service is down');
      },
    });
    const outcome = await runLoopMachine(machine, 'task');
    expect(outcome.status).toBe('permanent_failure');
    expect(runWhatIfLines(machine, outcome, [{ maxRetries: 0 }])).toEqual([
      {
        candidate: 'maxRetries=0',
        text: 'unknown beyond step 1: the record does not keep the last failure',
      },
    ]);
  });
});
