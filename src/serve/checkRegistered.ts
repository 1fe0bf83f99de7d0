import { LoopConfigError } from '../LoopConfigError.js';
import type { AnyLoopConfig, PipelinePlan } from '../pipeline/pipelinePlan.js';

/**
 * Checks the loops and pipelines a server may drive: each is keyed by the id its runs are stored
 * under (`config.id ?? 'loop'`, `plan.id ?? 'pipeline'`), else no stored run could ever match it.
 * Throws `LoopConfigError` naming the entry.
 * @example checkRegistered({ invoice: invoiceLoop }, {});
 */
export function checkRegistered(
  loops: Readonly<Record<string, AnyLoopConfig>>,
  pipelines: Readonly<Record<string, PipelinePlan>>,
): void {
  const problems: string[] = [];
  const check = (field: string, entries: [string, unknown][], fallback: string, what: string) => {
    for (const [key, value] of entries) {
      if (typeof value !== 'object' || value === null) {
        problems.push(`  - ${field}.${key}: must be a ${what}`);
        continue;
      }
      const id = (value as { id?: unknown }).id ?? fallback;
      if (id !== key) {
        problems.push(
          `  - ${field}.${key}: its id is '${String(id)}'; key it by that id, the one its runs are stored under`,
        );
      }
    }
  };
  check('loops', Object.entries(loops), 'loop', 'loop config');
  check('pipelines', Object.entries(pipelines), 'pipeline', 'pipeline plan');
  if (problems.length) {
    throw new LoopConfigError(`loopchart: invalid registered loops\n${problems.join('\n')}`);
  }
}
