// The one workload every implementation runs: a draft that the validator accepts after 5 refines,
// with trivial async steps, so what is measured is the loop machinery around them.

/** The attempt's input; each refine bumps `revision`. */
export interface Task {
  topic: string;
  revision: number;
  feedback?: string;
}

/** The candidate an attempt produces. */
export interface Draft {
  text: string;
  revision: number;
}

export type Verdict =
  | { valid: true }
  | { valid: false; error: { severity: 'correctable'; message: string } };

/** Refines until the candidate is valid. */
export const REFINES_TO_VALID = 5;
/** Attempt → validate cycles per loop: the first try plus one per refine. */
export const ITERATIONS_PER_LOOP = REFINES_TO_VALID + 1;
/** The refine budget every implementation gets (exactly enough). */
export const MAX_RETRIES = REFINES_TO_VALID;

/** What every implementation resolves to, checked after each run. */
export interface LoopResult {
  candidate: Draft | undefined;
  iterations: number;
}

/**
 * Holds every loop inside its attempt of `revision` until released, so a heap snapshot can be
 * taken with all of them mid-run. Off unless `armed`.
 */
export const hold = {
  revision: -1,
  arrived: 0,
  gate: Promise.resolve(),
  release: () => {},
};

export function armHold(revision: number): void {
  hold.revision = revision;
  hold.arrived = 0;
  hold.gate = new Promise<void>((resolve) => {
    hold.release = resolve;
  });
}

export function disarmHold(): void {
  hold.release();
  hold.revision = -1;
}

export async function attempt(task: Task): Promise<Draft> {
  if (task.revision === hold.revision) {
    hold.arrived++;
    await hold.gate;
  }
  return { text: `${task.topic}, revision ${task.revision}`, revision: task.revision };
}

export async function validate(draft: Draft): Promise<Verdict> {
  if (draft.revision >= REFINES_TO_VALID) return { valid: true };
  const message = `revision ${draft.revision} lacks the summary`;
  return { valid: false, error: { severity: 'correctable', message } };
}

export async function refine(task: Task, feedback: string | undefined): Promise<Task> {
  return { topic: task.topic, revision: task.revision + 1, feedback };
}

/** The input of loop number `n`. */
export function taskFor(n: number): Task {
  return { topic: `memo ${n}`, revision: 0 };
}

/** Throws unless a run ended the way the workload must end. */
export function checkResult(name: string, result: LoopResult): void {
  if (result.candidate?.revision !== REFINES_TO_VALID || result.iterations !== REFINES_TO_VALID) {
    throw new Error(`${name} ended wrongly: ${JSON.stringify(result)}`);
  }
}

/** One implementation of the workload. */
export interface LoopImplementation {
  name: string;
  run(task: Task): Promise<LoopResult>;
}
