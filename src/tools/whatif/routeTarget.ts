import { holdsRow, type Row, type Shape } from '../../core/decisions/decisionTable.js';
import type { RouteFacts } from '../../core/decisions/routeFacts.js';
import { ROUTE_GUARDS, type RouteGuard } from '../../core/decisions/routeGuards.js';

/**
 * The state the first row of `rows` that a chart of `shape` holds and whose guard passes leads to,
 * the same for every variant of the facts; `undefined` when the variants (the facts a record did
 * not keep, each way it could have been) lead to different states.
 * @example routeTarget(VERDICT_ROWS, shapeOf(settings), [facts]) // 'refining'
 */
export function routeTarget(
  rows: readonly Row[],
  shape: Shape,
  variants: readonly RouteFacts[],
): string | undefined {
  let target: string | undefined;
  for (const facts of variants) {
    const row = rows.find(
      (r) =>
        holdsRow(r, shape) && (r.guard === undefined || ROUTE_GUARDS[r.guard as RouteGuard](facts)),
    );
    if (row === undefined) throw new Error('loopchart: every chart ends in one unguarded row');
    if (target !== undefined && row.target !== target) return undefined;
    target = row.target;
  }
  return target;
}
