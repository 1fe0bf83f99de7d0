import { createLoopMachine, type LoopConfig } from 'loopchart';
import type { AnyStateMachine } from 'xstate';

const attempt = () => 'draft';
const validate = () => ({ valid: true as const });
const refine = ({ input }: { input: unknown }) => input;
const fallback = () => 'fallback';

/** Configs that between them reach every shape of the loop machine (README configs included). */
export const DEFINITION_CONFIGS: Record<string, LoopConfig> = {
  default: { attempt, validate },
  readme: { attempt, validate, maxRetries: 3 },
  noRetries: { attempt, validate, maxRetries: 0 },
  oneAttempt: { attempt, validate, maxAttempts: 1 },
  ceilingFirst: { attempt, validate, refine, maxRetries: 3, maxAttempts: 3 },
  ceilingFirstBudget: { attempt, validate, maxRetries: 5, maxAttempts: 4, maxCost: 10 },
  fallback: { attempt, validate, refine, fallback, maxRetries: 2 },
  fallbackBudget: { attempt, validate, fallback, maxRetries: 2, maxCost: 5 },
  budget: { attempt, validate, maxCost: 1 },
  review: { attempt, validate, review: { beforeProceed: true, afterFailedValidation: true } },
  reviewBefore: { attempt, validate, maxRetries: 1, review: { beforeProceed: true } },
  noStall: { attempt, validate, stall: false, trace: false },
  idempotent: { attempt, validate, fallback, idempotent: true },
  named: { id: 'draft', attempt, validate, maxRetries: 1, stall: { after: 2, on: 'verdict' } },
};

interface NodeLike {
  key: string;
  always?: readonly { guard?: unknown; target?: readonly { id: string }[]; actions: unknown[] }[];
  states: Record<string, NodeLike>;
}

const nameOf = (value: unknown) =>
  typeof value === 'object' && value !== null && 'type' in value
    ? { type: (value as { type: unknown }).type, params: (value as { params?: unknown }).params }
    : value;

function alwaysLists(node: NodeLike): Record<string, unknown> {
  const lists: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(node.states)) {
    if (child.always?.length) {
      lists[key] = child.always.map((t) => ({
        guard: nameOf(t.guard) ?? null,
        target: (t.target ?? []).map((n) => n.id),
        actions: t.actions.map(nameOf),
      }));
    }
  }
  return lists;
}

/** A machine's `toJSON()` and the `always` lists of its states (which `toJSON()` leaves out). */
export function definitionOf(machine: AnyStateMachine) {
  return {
    json: JSON.parse(JSON.stringify(machine.toJSON())),
    always: alwaysLists(machine.root as unknown as NodeLike),
  };
}

export function allDefinitions() {
  return Object.fromEntries(
    Object.entries(DEFINITION_CONFIGS).map(([name, config]) => [
      name,
      definitionOf(createLoopMachine(config)),
    ]),
  );
}
