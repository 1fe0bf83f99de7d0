import { type Command, Option } from 'commander';
import type { LoopConfig } from '../../config.js';
import { toMachineJson } from '../../diagram/toMachineJson.js';
import { toMermaid } from '../../diagram/toMermaid.js';
import { isLoopConfigError } from '../../LoopConfigError.js';
import { createLoopMachine } from '../../machines/loopMachine.js';
import { cliOutput } from '../cliOutput.js';
import { integerFlag, numberFlag } from '../flags/integerFlag.js';

interface DiagramFlags {
  format: 'mermaid' | 'json';
  direction?: 'TB' | 'LR';
  id?: string;
  maxRetries?: number;
  maxAttempts?: number;
  maxCost?: number;
  fallback?: boolean;
  review?: 'before' | 'after' | 'both';
  stall: boolean;
  stallAfter?: number;
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
    .option('--max-retries <n>', 'refine budget, 0–50 (default 3)', integerFlag(0, 50))
    .option(
      '--max-attempts <n>',
      'hard ceiling on attempts, 1–100 (default 2 × (maxRetries + 1))',
      integerFlag(1, 100),
    )
    .option('--max-cost <n>', 'cost budget > 0 (adds the budget_stop branches)', numberFlag(0))
    .option('--fallback', 'with a fallback step')
    .addOption(
      new Option('--review <when>', 'with a human review checkpoint').choices([
        'before',
        'after',
        'both',
      ]),
    )
    .addOption(new Option('--no-stall', 'without stall detection').conflicts('stallAfter'))
    .option(
      '--stall-after <n>',
      'stall after n identical fingerprints, 2–50 (default 3)',
      integerFlag(2, 50),
    )
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
        : { stall: { after: flags.stallAfter } }),
  };
  const bounds = {
    maxRetries: flags.maxRetries,
    maxAttempts: flags.maxAttempts,
    maxCost: flags.maxCost,
  };
  for (const [key, value] of Object.entries(bounds)) {
    if (value !== undefined) Object.assign(config, { [key]: value });
  }
  return config;
}
