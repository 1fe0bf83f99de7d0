import { describeValue } from '../../../core/vocabulary/describeValue.js';
import type { LoopOutcome } from '../../../core/vocabulary/outcome.js';
import type { Colors } from '../cliOutput.js';
import { plural } from '../format.js';

/**
 * How a run ended, in a few labelled lines: the status, why, and the result or the partial.
 * @example for (const line of outcomeSummary(outcome, colors)) console.log(line);
 */
export function outcomeSummary(outcome: LoopOutcome<unknown>, c: Colors): string[] {
  const status = outcome.ok ? c.green(c.bold(outcome.status)) : c.red(c.bold(outcome.status));
  const counts = `${plural(outcome.iterations, 'refine cycle')}, ${plural(outcome.attempts, 'attempt')}`;
  const lines = [`  ${c.dim('outcome')}  ${status}  ${c.dim(counts)}`];
  lines.push(`  ${c.dim('why    ')}  ${outcome.rationale}`);
  if (outcome.status === 'proceed' || outcome.status === 'fallback') {
    lines.push(`  ${c.dim('result ')}  ${describeValue(outcome.candidate, 96)}`);
  }
  if ('partial' in outcome && outcome.partial !== undefined) {
    lines.push(`  ${c.dim('partial')}  ${describeValue(outcome.partial, 96)}`);
  }
  if ('error' in outcome) {
    const { kind, state, cap } = outcome.error;
    lines.push(
      `  ${c.dim('error  ')}  ${kind} in ${state}${cap === undefined ? '' : `, cap ${cap}`}`,
    );
  }
  return lines;
}
