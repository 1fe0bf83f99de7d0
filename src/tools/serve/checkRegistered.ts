import { LoopConfigError } from '../../core/vocabulary/LoopConfigError.js';
import type { AnyLoopConfig, PipelinePlan } from '../../runners/pipeline/pipelinePlan.js';

/**
 * Checks the loops, pipelines and agents a server may drive: each is keyed by the id its runs are
 * stored under (`config.id ?? 'loop'`, `plan.id ?? 'pipeline'`, `agent.config.id`), else no
 * stored run could ever match it.
 * Throws `LoopConfigError` naming the entry.
 * @example checkRegistered({ invoice: invoiceLoop }, {});
 */
export function checkRegistered(
  loops: Readonly<Record<string, AnyLoopConfig>>,
  pipelines: Readonly<Record<string, PipelinePlan>>,
  agents: Readonly<Record<string, { readonly config: { id: string } }>> = {},
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
  // an agent's runs are stored under its config's id
  check(
    'agents',
    Object.entries(agents).map(([key, agent]) => [
      key,
      typeof agent === 'object' && agent !== null && 'config' in agent ? agent.config : agent,
    ]),
    'agent',
    'agent (createAgent)',
  );
  if (problems.length) {
    throw new LoopConfigError(`loopchart: invalid registered loops\n${problems.join('\n')}`);
  }
}
