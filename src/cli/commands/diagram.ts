import { type Command, Option } from 'commander';
import type { LoopConfig } from '../../config.js';
import { toMachineJson } from '../../diagram/toMachineJson.js';
import { toMermaid } from '../../diagram/toMermaid.js';
import { isLoopConfigError } from '../../LoopConfigError.js';
import { createLoopMachine } from '../../machines/loopMachine.js';
import { cliOutput } from '../cliOutput.js';

interface DiagramFlags {
  format: 'mermaid' | 'json';
  direction?: 'TB' | 'LR';
  id?: string;
  maxRetries?: string;
  maxAttempts?: string;
  maxCost?: string;
  fallback?: boolean;
  review?: 'before' | 'after' | 'both';
  stall: boolean;
  stallAfter?: string;
  idempotent?: boolean;
}

/** `loopchart diagram`: prints the loop statechart a config builds, as Mermaid or as JSON. */
export function register(program: Command): void {
  program
    .command('diagram')
    .description("print the loop's statechart for these options (Mermaid stateDiagram-v2 or JSON)")
    .addOption(
      new Option('--format <format>', 'output format')
        .choices(['mermaid', 'json'])
        .default('mermaid'),
    )
    .addOption(new Option('--direction <dir>', 'Mermaid layout direction').choices(['TB', 'LR']))
    .option('--id <id>', 'the machine id (default loop)')
    .option('--max-retries <n>', 'refine budget (default 3)')
    .option('--max-attempts <n>', 'hard ceiling on attempts (default 2 × (maxRetries + 1))')
    .option('--max-cost <n>', 'cost budget (adds the budget_stop branches)')
    .option('--fallback', 'with a fallback step')
    .addOption(
      new Option('--review <when>', 'with a human review checkpoint').choices([
        'before',
        'after',
        'both',
      ]),
    )
    .option('--no-stall', 'without stall detection')
    .option('--stall-after <n>', 'stall after n identical fingerprints (default 3)')
    .option('--idempotent', 'every step idempotent (no unknown_outcome branch)')
    .action((flags: DiagramFlags, command: Command) => {
      const out = cliOutput(command);
      let machine: ReturnType<typeof createLoopMachine>;
      try {
        machine = createLoopMachine(diagramConfig(flags));
      } catch (error) {
        if (!isLoopConfigError(error)) throw error;
        command.error(`diagram: ${error.message}`, {
          exitCode: 2,
          code: 'loopchart.diagram.config',
        });
        return;
      }
      out.out(
        flags.format === 'json'
          ? JSON.stringify(toMachineJson(machine), null, 2)
          : toMermaid(machine, flags.direction ? { direction: flags.direction } : {}).trimEnd(),
      );
    });
}

/** The loop config the flags describe, with no-op steps: only its shape matters for a diagram. */
export function diagramConfig(flags: Partial<DiagramFlags>): LoopConfig {
  const number = (value: string | undefined) => (value === undefined ? undefined : Number(value));
  const review = flags.review;
  const config: LoopConfig = {
    attempt: () => undefined,
    validate: () => ({ valid: true }),
    refine: ({ input }) => input,
    ...(flags.id === undefined ? {} : { id: flags.id }),
    ...(flags.fallback ? { fallback: () => undefined } : {}),
    ...(flags.idempotent ? { idempotent: true } : {}),
    ...(review
      ? {
          review: { beforeProceed: review !== 'after', afterFailedValidation: review !== 'before' },
        }
      : {}),
    ...(flags.stall === false
      ? { stall: false as const }
      : flags.stallAfter === undefined
        ? {}
        : { stall: { after: number(flags.stallAfter) as number } }),
  };
  const bounds = {
    maxRetries: number(flags.maxRetries),
    maxAttempts: number(flags.maxAttempts),
    maxCost: number(flags.maxCost),
  };
  for (const [key, value] of Object.entries(bounds)) {
    if (value !== undefined) Object.assign(config, { [key]: value });
  }
  return config;
}
