import { expect } from 'vitest';
import { budgetRefusals, type Problems } from './brokenPromises.js';
import type { Combination } from './combination.js';
import type { CombinationRun } from './runCombination.js';

/** What the generated runs reached, what they broke (each count must stay 0), and their time. */
export class Figures {
  runs = 0;
  crashes = 0;
  refusals = 0;
  deadlineStops = 0;
  counts = new Map<string, number>();
  zeros = {
    hangs: 0,
    boundViolations: 0,
    duplicatedEffects: 0,
    unhandledRejections: 0,
    changedRefusedRows: 0,
  };
  /** The longest run, in simulated ms, and the most timers one needed. */
  longest = { ms: 0, of: '' };
  firings = 0;
  readonly started = Date.now();

  constructor(readonly label: string) {}

  add(c: Combination, run: CombinationRun, problems: Problems) {
    this.runs += 1;
    this.crashes += run.crashes;
    this.refusals += run.refusals;
    this.zeros.boundViolations += problems.bounds.length;
    this.zeros.duplicatedEffects += problems.effects.length;
    this.zeros.changedRefusedRows += problems.rows.length;
    const { outcome, ledger } = run;
    if (outcome.status === 'ceiling_stop' && outcome.error.cap === 'deadlineMs')
      this.deadlineStops += 1;
    this.count(`status ${outcome.status}`);
    this.count(`host ${c.host}`);
    this.count(`steps ${c.steps}`);
    if (c.steps === 'model') this.count(`model ${outcome.status}`);
    if (c.host === 'pipeline') this.count(`pipeline ${c.pipeline.shape}/${c.pipeline.store}`);
    if (c.host === 'pipeline' && run.crashes > 0) this.count('pipeline crashes');
    if (c.host === 'pipeline' && run.reruns > 0) this.count('pipeline reruns');
    if (c.host === 'agent') this.count(`agent ${c.agent.shape}/${c.agent.check}`);
    if (c.host === 'pipeline' && c.pipeline.shape === 'layer' && ledger.crossChecks.calls > 0)
      this.count(`cross-check ${c.pipeline.crossCheck}`);
    // faults that took effect
    this.count('store hangs', ledger.store.hangs);
    this.count('store late answers', ledger.store.lateCalls);
    this.count('store throws', ledger.store.thrown.length);
    this.count('schema hangs', ledger.schemaHangs);
    this.count('rows edited and refused', run.rowEdits.refused);
    this.count('rows edited and taken', run.rowEdits.taken);
    this.count('ends with a save pending', run.unsavedEnds);
    this.count('known failure U1', run.knownU1);
    if (c.costEstimates !== undefined && c.maxCost !== undefined) this.count('cost reserved');
    if (budgetRefusals(outcome.trace).length > 0)
      this.count(`refused by budget${c.costEstimates === undefined ? '' : ' (estimates)'}`);
    if (c.faults.clockJump && c.faults.clockJump.atMs < run.elapsedMs)
      this.count(c.faults.clockJump.byMs < 0 ? 'clock set back' : 'clock set forward');
    const odd = (moves: readonly string[], step: string) => {
      if (moves.includes('undefined')) this.count(`${step} may return undefined`);
      if (moves.includes('odd')) this.count(`${step} may throw odd values`);
    };
    odd(c.attempt, 'attempt');
    odd(c.validate, 'validate');
    odd(c.refine, 'refine');
    odd(c.fallbackMoves, 'fallback');
    this.firings = Math.max(this.firings, run.firings);
    if (run.elapsedMs > this.longest.ms)
      this.longest = { ms: run.elapsedMs, of: `${c.host}, budget ${run.budgetMs} ms` };
  }

  count(what: string, n = 1) {
    if (n > 0) this.counts.set(what, (this.counts.get(what) ?? 0) + n);
  }

  has(what: string) {
    return this.counts.get(what) ?? 0;
  }

  /** Each fault took effect in more than `least` runs. */
  expectFaultsReached(least: number) {
    for (const fault of [
      'store hangs',
      'store late answers',
      'store throws',
      'schema hangs',
      'rows edited and refused',
      'ends with a save pending',
      'clock set back',
      'clock set forward',
      'attempt may return undefined',
      'validate may throw odd values',
    ])
      expect(this.has(fault), fault).toBeGreaterThan(least);
  }

  line(postgres: boolean) {
    const counts = [...this.counts].sort(([a], [b]) => a.localeCompare(b));
    const zeros = Object.entries(this.zeros).map(([k, n]) => `${k} ${n}`);
    return `${this.label}: ${this.runs} runs in ${((Date.now() - this.started) / 1000).toFixed(1)} s (real), ${this.crashes} crashes resumed, ${this.refusals} answers refused, ${this.deadlineStops} deadline stops; ${zeros.join(', ')}; longest ${this.longest.ms} ms simulated (${this.longest.of}), at most ${this.firings} timers a run; ${counts.map(([k, n]) => `${k} ${n}`).join(', ')}${postgres ? '' : ' (no Postgres server: its runs used memory)'}`;
  }
}
