import { type AnyStateMachine, createActor } from 'xstate';
import { type LoopView, loopView } from '../../core/chart/loopView.js';
import type { StepInput } from '../../core/chart/stepActors.js';
import type { LoopConfig } from '../../core/vocabulary/config.js';
import { describeValue } from '../../core/vocabulary/describeValue.js';
import {
  classifyFailure,
  type FailureClassifier,
  isLoopStepFailure,
  type LoopStepFailure,
  markFailureRecord,
  readError,
  type StepName,
} from '../../core/vocabulary/failures.js';
import {
  clarificationRequest,
  readStepResult,
  withCost,
} from '../../core/vocabulary/stepResults.js';
import { parseVerdict } from '../../core/vocabulary/validation.js';
import { LoopPathMismatchError } from './LoopPathMismatchError.js';
import { LoopPathUnrealisableError } from './LoopPathUnrealisableError.js';
import { drawSample, type LoopSamples, type SampleKey, sampleAt } from './loopSamples.js';
import { verdictClass } from './loopStateKey.js';
import { runRealStep, type StepRunner } from './runRealStep.js';
import { type LabelledEvent, type RealStepsGiven, sampleFor, verdictAfter } from './sampleNeeds.js';
import { SAME_DRAFT } from './scriptedEvents.js';
import { comparable, type DryRun, inertCopy, transitionRecorder } from './takenTransitions.js';

/** The user's own steps a replay runs instead of scripting them (the attempt is always scripted). */
export type RealSteps<I, C> = Partial<
  Pick<LoopConfig<I, C>, 'validate' | 'refine' | 'fallback' | 'classifyFailure'>
>;

/** What turning a path's scripted events into the user's values needs. */
export interface Realisation<I, C> {
  machine: AnyStateMachine;
  input: unknown;
  description: string;
  steps: readonly LabelledEvent[];
  samples: LoopSamples<I, C>;
  realSteps: RealSteps<I, C> | undefined;
  stepTimeoutMs: number;
}

type Event = LabelledEvent['event'];

const EXPECTED: Record<string, string> = {
  valid: 'a valid verdict',
  correctable: 'a correctable error',
  'correctable (same error)': 'a correctable error',
  fundamental: 'a fundamental error',
  'no diagnostic': 'an invalid verdict with no diagnostic',
  'malformed verdict': 'a malformed verdict',
};
const CLASS_OF: Record<string, string> = {
  'a valid verdict': 'valid',
  'a correctable error': 'correctable',
  'a fundamental error': 'fundamental',
  'an invalid verdict with no diagnostic': 'no diagnostic',
  'a malformed verdict': 'malformed',
};

/**
 * Walks a path on an inert copy of the machine and rewrites its events with the user's values:
 * each candidate, refined input, fallback answer and reviewer edit drawn from the samples, each
 * real step's output computed by the user's function on the step input the machine gives it, each
 * thrown failure classified by the user's classifier. A step that disagrees with the path throws
 * `LoopPathMismatchError` naming the step, the sample and what the path expected. What the walk
 * saw is the dry run the replay must then match.
 */
export async function realiseLoopPath<I, C>(
  plan: Realisation<I, C>,
): Promise<{ events: Event[]; dryRun: DryRun }> {
  const { steps, samples, realSteps, description } = plan;
  const real: RealStepsGiven = {
    validate: realSteps?.validate !== undefined,
    refine: realSteps !== undefined,
    fallback: realSteps?.fallback !== undefined,
  };
  const inert = inertCopy(plan.machine);
  const recorder = transitionRecorder(inert);
  const actor = createActor(inert, { input: { input: plan.input }, inspect: recorder.inspect });
  actor.start();
  const snapshots = [comparable(actor.getSnapshot())];
  const events: Event[] = [];
  let source = 'the first input';
  let lastVerdict: string | undefined;
  let answer: unknown;
  // the candidate under validation is one the validator already judged, and what it said then
  let resubmitted = false;
  let lastReal: string | undefined;
  const unrealisable = (at: number, reason: string) =>
    new LoopPathUnrealisableError(description, at, reason);
  const settingsOf = () => (loopView(actor.getSnapshot()) as LoopView).settings;
  const draw = async (key: SampleKey, n: number) => {
    const value = await drawSample(sampleAt(samples, key), n, `${description} ${key}`);
    source = `samples.${key} (n = ${n}: ${describeValue(value)})`;
    resubmitted = false;
    return value;
  };
  try {
    for (const [index, step] of steps.entries()) {
      const { label, event } = step;
      const fail = (problem: string) => new LoopPathMismatchError(description, index + 1, problem);
      const view = loopView(actor.getSnapshot());
      const key = sampleFor(steps, index, samples, real);
      const stepInput = () => {
        const id = event.type.replace(/^xstate\.(done|error)\.actor\./, '');
        return actor.getSnapshot().children[id]?.getSnapshot().input as StepInput | undefined;
      };
      let next: Event = event;
      if (event.type === 'xstate.done.actor.attempt') {
        const read = readStepResult(event.output);
        let value = read.value;
        const same = value === SAME_DRAFT && view?.candidate !== undefined;
        resubmitted = same && lastVerdict === verdictAfter(steps, index);
        if (resubmitted) value = view?.candidate;
        else if (key) value = await draw(key, view?.attempts ?? 1);
        else if (answer === undefined && samples.answer !== undefined && isQuestion(value)) {
          answer = await drawSample(samples.answer, view?.attempts ?? 1, `${description} answer`);
          value = clarificationRequest({ question: value.question, options: [String(answer)] });
        }
        next = { ...event, output: read.costed ? withCost(value, read.cost) : value };
      } else if (event.type === 'xstate.done.actor.validate') {
        lastVerdict = verdictAfter(steps, index - 1);
        if (realSteps?.validate) {
          const validate = realSteps.validate as (candidate: unknown, ctx: unknown) => unknown;
          const output = await runReal('validate', (ctx) => validate(ctx.candidate, ctx));
          const verdict = verdictClass(parseVerdict(readStepResult(output).value));
          const expected = EXPECTED[label] ?? label;
          const previous = lastReal;
          lastReal = verdict;
          if (verdict !== CLASS_OF[expected] && resubmitted && previous !== CLASS_OF[expected]) {
            throw unrealisable(
              index + 1,
              `the path needs validate to give ${expected} for a draft it already judged ${previous}; your validator gives ${verdict}`,
            );
          }
          if (verdict !== CLASS_OF[expected]) {
            const gave = verdict === 'valid' ? 'accepted' : `gave a ${verdict} verdict for`;
            throw fail(`validate ${gave} ${source}; the path expected ${expected}`);
          }
          next = { ...event, output };
        }
      } else if (event.type === 'xstate.done.actor.refine' && realSteps) {
        const refine = (realSteps.refine ?? keepInput) as StepRunner;
        next = { ...event, output: await runReal('refine', refine) };
        source = `the input refine built from ${source}`;
      } else if (event.type === 'xstate.done.actor.fallback' && realSteps?.fallback) {
        next = {
          ...event,
          output: await runReal('fallback', realSteps.fallback as unknown as StepRunner),
        };
        source = 'the fallback answer';
      } else if (key) {
        const n = event.type === 'review.modify' ? (view?.attempts ?? 1) : (view?.iterations ?? 1);
        const value = await draw(key, n);
        if (event.type === 'review.modify') {
          next = 'input' in event ? { ...event, input: value } : { ...event, candidate: value };
        } else next = { ...event, output: value };
      } else if (event.type === 'review.modify' && event.candidate === SAME_DRAFT) {
        next = { ...event, candidate: view?.candidate };
        resubmitted = true;
      } else if (event.type === 'clarification.answer' && answer !== undefined) {
        next = { ...event, answer };
        answer = undefined;
      } else if (event.type.startsWith('xstate.error.actor.')) {
        next = classified(event, label, samples, realSteps?.classifyFailure, fail);
      }
      events.push(next);
      actor.send(next);
      snapshots.push(comparable(actor.getSnapshot(), index === steps.length - 1));

      const at = String(actor.getSnapshot().value);
      if (step.state !== undefined && at !== step.state) {
        const stalls =
          at === 'stalled'
            ? ' (your validator gives the same verdict to the same draft, so the loop stalls)'
            : '';
        throw unrealisable(
          index + 1,
          `with your steps the run goes to ${at} where the path goes to ${step.state}${stalls}`,
        );
      }

      function runReal(name: StepName, run: StepRunner): Promise<unknown> {
        const input = stepInput();
        if (input === undefined)
          throw unrealisable(index + 1, `the run is not in a ${name} step here`);
        return runRealStep({
          step: name,
          run,
          input,
          settings: settingsOf(),
          timeoutMs: plan.stepTimeoutMs,
          source,
          label,
          fail,
          unrealisable: (reason) => unrealisable(index + 1, reason),
        });
      }
    }
  } finally {
    actor.stop();
  }
  return { events, dryRun: { snapshots, transitions: recorder.taken } };
}

const keepInput: StepRunner = (ctx) => ctx.input;

function isQuestion(value: unknown): value is { question: string } {
  return typeof value === 'object' && value !== null && 'question' in value;
}

function thrownName(error: unknown): string {
  const { name, message } = readError(error);
  return `${name ?? 'a value'}: ${message}`;
}

/**
 * The error event a path's failure becomes: the user's sample error of that kind if they gave one,
 * classified as the loop would classify it; the kind must be the path's.
 */
function classified<I, C>(
  event: Event,
  label: string,
  samples: LoopSamples<I, C>,
  classify: FailureClassifier | undefined,
  fail: (problem: string) => LoopPathMismatchError,
): Event {
  const scripted = event.error as LoopStepFailure;
  if (!isLoopStepFailure(scripted)) return event;
  const step = event.type.replace('xstate.error.actor.', '') as StepName;
  const sample = samples.errors?.[scripted.kind];
  if (sample === undefined && classify === undefined) return event;
  const thrown = sample === undefined ? scripted : sample;
  const named =
    sample === undefined
      ? `${label} (${scripted.message})`
      : `samples.errors.${scripted.kind} (${readError(sample).message})`;
  if (classify) {
    try {
      classify(thrown);
    } catch (error) {
      throw fail(
        `classifyFailure threw ${thrownName(error)} on ${named}; the path expected ${scripted.kind}`,
      );
    }
  }
  const record = classifyFailure(thrown, step, classify);
  if (record.kind !== scripted.kind) {
    const who = classify ? 'classifyFailure' : 'the default classifier';
    throw fail(`${who} calls ${named} ${record.kind}; the path expected ${scripted.kind}`);
  }
  const fits =
    record.effect === scripted.effect &&
    (record.retryAfterMs === undefined) === (scripted.retryAfterMs === undefined);
  if (sample !== undefined && !fits)
    return { ...event, error: markFailureRecord(classifyFailure(scripted, step, classify)) };
  return { ...event, error: markFailureRecord(record) };
}
