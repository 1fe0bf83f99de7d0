import { FAILURE_ROWS, reachable, VERDICT_ROWS } from '../decisions/decisionTable.js';
import { ATTEMPT_GATE_ROWS, RETRY_ROWS, VERDICT_ARRIVAL_ROWS } from './loopRoutes.js';
import type { LoopShape } from './loopShape.js';

/**
 * The chart's routing rows for a shape, by the state (and event) that takes them, in the order
 * they are tried: what `loopMachine.ts` places, and what `routeTable` prints.
 */
export function loopRouteRows(shape: LoopShape) {
  return {
    'validating, on done': reachable(VERDICT_ARRIVAL_ROWS, shape),
    routing: reachable(VERDICT_ROWS, shape),
    failed: reachable(FAILURE_ROWS, shape),
    'waitingToRetry, on done': reachable(RETRY_ROWS, shape),
    attemptGate: reachable(ATTEMPT_GATE_ROWS, shape),
  };
}

/**
 * The routing rows of a shape as text, one `guard → target` a line (`otherwise` for the row
 * without a guard): `compileLoop(config).routes` for the config in front of you.
 * @example console.log(compileLoop({ attempt, validate }).routes);
 */
export function routeTable(shape: LoopShape): string {
  const lines: string[] = [];
  for (const [state, rows] of Object.entries(loopRouteRows(shape))) {
    lines.push(`${state}:`);
    const width = Math.max(...rows.map((row) => guardOf(row).length));
    for (const row of rows) lines.push(`  ${guardOf(row).padEnd(width)} → ${row.target}`);
  }
  return lines.join('\n');
}

const guardOf = (row: object) =>
  'guard' in row && typeof row.guard === 'string' ? row.guard : 'otherwise';
