/**
 * The shape decision up front, and a pipeline planned by a model (loopchart/agent).
 * - "What is the VAT rate in Spain?" matches no heuristic rule, so the bounded model check is asked
 *   ("simple or complex?", 16 output tokens, 3 s): it says simple, and the request runs single-shot,
 *   one attempt and one validation;
 * - "Compare … for each region … summary table" matches three rules and is routed to a planned
 *   pipeline without asking the model; the planner model's first plan names a stage kind the
 *   registry does not have, the check says which, and its second plan is accepted;
 * - the plan runs in dependency layers (the two lookups together, then the comparison) and pauses at
 *   the comparison's checkpoint, stored in SQLite with the accepted plan;
 * - a fresh agent and store on the same file, as a new process would build them, resume the run: only
 *   the table stage runs, and the planner is not called (test/agent-resume.test.ts does this in a
 *   real child process).
 * Runs offline: the models are the AI SDK's `MockLanguageModelV3` (from `ai/test`) with scripted replies.
 * Run it from a clone of the repository: `npm run example -- agent`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import {
  type AgentConfig,
  createAgent,
  resumeAgent,
  runAgent,
  type StageRegistry,
} from 'loopchart/agent';
import { SqliteCheckpointStore } from 'loopchart/sqlite';

/** A scripted model: each call returns the next reply. */
function scriptedModel(replies: string[]) {
  return new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: 'text', text: replies.shift() ?? '' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 80, noCache: 80, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 6, text: 6, reasoning: undefined },
      },
      warnings: [],
    }),
  });
}

/** One model call; the loop and the router do the retrying, so the SDK's own retries are off. */
async function ask(
  model: MockLanguageModelV3,
  prompt: string,
  signal: AbortSignal,
  maxOutputTokens?: number,
) {
  const { text, usage } = await generateText({
    model,
    prompt,
    abortSignal: signal,
    maxRetries: 0,
    ...(maxOutputTokens ? { maxOutputTokens } : {}),
  });
  return { text, ...(usage.outputTokens === undefined ? {} : { tokens: usage.outputTokens }) };
}

const revenue: Record<string, Record<string, number>> = {
  acme: { north: 410, south: 290 },
  globex: { north: 350, south: 330 },
};
type Row = { company: string; byRegion: Record<string, number> };
const valid = { valid: true } as const;

const registry: StageRegistry = {
  lookup: {
    description: 'reads the Q3 revenue by region of params.company',
    input: ({ params }) => params.company,
    loop: {
      attempt: ({ input }) => ({ company: String(input), byRegion: revenue[String(input)] ?? {} }),
      validate: (row) =>
        Object.keys((row as Row).byRegion).length > 0
          ? valid
          : {
              valid: false,
              error: { severity: 'fundamental', message: `no revenue for ${(row as Row).company}` },
            },
    },
  },
  compare: {
    description: 'names the leader of each region among the companies its dependencies looked up',
    input: ({ results }) => Object.values(results),
    loop: {
      attempt: ({ input }) => {
        const rows = input as Row[];
        const regions = Object.keys(rows[0]?.byRegion ?? {});
        return regions.map((region) => {
          const [leader] = [...rows].sort(
            (a, b) => (b.byRegion[region] ?? 0) - (a.byRegion[region] ?? 0),
          );
          return { region, leader: leader?.company, revenue: leader?.byRegion[region] };
        });
      },
      validate: () => valid,
    },
  },
  table: {
    description: 'writes the summary table from the comparison',
    input: ({ results }) => Object.values(results)[0],
    loop: {
      attempt: ({ input }) =>
        [
          '| region | leader | revenue |',
          ...(input as { region: string; leader: string; revenue: number }[]).map(
            (r) => `| ${r.region} | ${r.leader} | ${r.revenue} |`,
          ),
        ].join('\n'),
      validate: (text) =>
        String(text).includes('| north |')
          ? valid
          : {
              valid: false,
              error: { severity: 'correctable', message: 'the table has no north row' },
            },
    },
  },
};

/** Everything one process builds: the models and the agent. */
function buildAgent(models: { check: string[]; answer: string[]; planner: string[] }) {
  const check = scriptedModel(models.check);
  const answer = scriptedModel(models.answer);
  const planner = scriptedModel(models.planner);
  const config: AgentConfig<string> = {
    task: {
      attempt: async ({ input, signal }) => (await ask(answer, input, signal)).text,
      validate: (text) =>
        /\d+\s*%/.test(text)
          ? valid
          : {
              valid: false,
              error: { severity: 'correctable', message: 'give the rate as a percentage' },
            },
    },
    router: {
      modelCheck: {
        ask: ({ prompt, maxTokens, signal }) => ask(check, prompt, signal, maxTokens),
        maxTokens: 16,
        timeoutMs: 3000,
      },
    },
    planner: {
      plan: async ({ request, instructions, feedback, signal }) =>
        (
          await ask(
            planner,
            [instructions, `Request: ${request}`, feedback ?? ''].join('\n\n'),
            signal,
          )
        ).text,
    },
    registry,
    pipeline: { id: 'q3Comparison' },
  };
  return { agent: createAgent(config), planner };
}

/** The text a model was sent, from its recorded call. */
function promptText(prompt: MockLanguageModelV3['doGenerateCalls'][number]['prompt'] | undefined) {
  return (prompt ?? [])
    .flatMap((message) => (message.role === 'user' ? message.content : []))
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('\n');
}

const dir = mkdtempSync(join(tmpdir(), 'loopchart-agent-'));
const file = join(dir, 'runs.db');
const plan = (lookupKind: string) =>
  JSON.stringify({
    stages: [
      { id: 'acme', kind: lookupKind, params: { company: 'acme' } },
      { id: 'globex', kind: lookupKind, params: { company: 'globex' } },
      { id: 'leaders', kind: 'compare', dependsOn: ['acme', 'globex'], checkpoint: true },
      { id: 'summary', kind: 'table', dependsOn: ['leaders'] },
    ],
  });

// The first process: a simple lookup, then the comparison, which pauses at its checkpoint.
const first = buildAgent({
  check: ['simple'],
  answer: ['The standard VAT rate in Spain is 21%.'],
  planner: [`\`\`\`json\n${plan('scrape')}\n\`\`\``, plan('lookup')],
});
const store = new SqliteCheckpointStore(file);

export const lookup = await runAgent(first.agent, 'What is the VAT rate in Spain?');
console.log(
  `${lookup.shape} (${lookup.decision?.decidedBy}): ${lookup.status}, "${lookup.result?.status === 'proceed' ? lookup.result.candidate : ''}"`,
);
console.log(`  why: ${lookup.decision?.reasons.join('; ')}`);

const question = 'Compare the Q3 revenue of Acme and Globex for each region, in a summary table';
export const paused = await runAgent(first.agent, question, { store, runId: 'q3-leaders' });
console.log(`${paused.shape} (${paused.decision?.decidedBy}): ${paused.status}`);
console.log(`  why: ${paused.decision?.reasons.map((reason) => reason.split(':')[0]).join('; ')}`);
console.log(`  planner: ${paused.planning?.outcome.attempts} model calls; the second prompt said:`);
for (const line of promptText(first.planner.doGenerateCalls[1]?.prompt).split('\n')) {
  if (line.startsWith('- stage')) console.log(`    ${line}`);
}
const layers = Object.entries(paused.pipeline?.stages ?? {}).map(
  ([id, s]) => `${id}@${s.layer}:${s.status}`,
);
console.log(`  stages: ${layers.join(' ')}`);
if (paused.pipeline?.status === 'paused') console.log(`  paused: ${paused.pipeline.pause.message}`);
store.close();

// A new process: new models (the planner has no replies left to give), a new store on the file.
const second = buildAgent({ check: [], answer: [], planner: [] });
const reopened = new SqliteCheckpointStore(file);
export const resumed = await resumeAgent(second.agent, {
  store: reopened,
  runId: 'q3-leaders',
  event: { type: 'pipeline.continue' },
});
reopened.close();
rmSync(dir, { recursive: true, force: true });
export const plannerCallsOnResume = second.planner.doGenerateCalls.length;
console.log(`resumed: ${resumed.status}, planner calls: ${plannerCallsOnResume}`);
console.log(String(resumed.pipeline?.results.summary));
