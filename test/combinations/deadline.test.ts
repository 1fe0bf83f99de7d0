/**
 * deadlineMs (SPEC §3/§4): a live run ends in time even when a step never resolves; the step in
 * flight is aborted through its signal; time paused for a person does not count, retry waits do;
 * a resumed run keeps its deadline. Simulated time (fake timers): no test sleeps or reads a
 * loaded machine's clock.
 */
import {
  clarificationRequest,
  type LoopConfig,
  type LoopOutcome,
  MemoryCheckpointStore,
  resolveConfig,
  resumeLoop,
  runLoop,
  transientFailure,
} from 'loopchart';
import { describe, expect, it, vi } from 'vitest';
import { track } from '../boundary/support/hangingStore.js';
import { simulatedTime } from '../boundary/support/simulatedTime.js';

simulatedTime();

const never = () => new Promise<never>(() => {});
const valid = () => ({ valid: true as const });
const stubborn = () => ({
  valid: false as const,
  error: { severity: 'correctable' as const, message: 'again' },
});

describe('deadlineMs', () => {
  it('is 15 minutes unless the config says otherwise, and null opts out', () => {
    const config = { attempt: () => 'x', validate: valid };
    expect(resolveConfig(config).deadlineMs).toBe(900_000);
    expect(resolveConfig({ ...config, deadlineMs: null }).deadlineMs).toBeNull();
    expect(resolveConfig({ ...config, deadlineMs: 300 }).deadlineMs).toBe(300);
    expect(() => resolveConfig({ ...config, deadlineMs: 0 })).toThrow(/deadlineMs/);
    expect(() => resolveConfig({ ...config, deadlineMs: 1.5 })).toThrow(/deadlineMs/);
  });

  it.each(['attempt', 'validate', 'refine', 'fallback'] as const)(
    'ends a loop whose %s never resolves as ceiling_stop with cap deadlineMs, within deadlineMs + 1 s',
    async (hung) => {
      let aborted: unknown;
      const hang = ({ signal }: { signal: AbortSignal }) => {
        signal.addEventListener('abort', () => (aborted = signal.reason));
        return never();
      };
      const config: LoopConfig<string, string> = {
        deadlineMs: 300,
        maxRetries: 1,
        attempt: hung === 'attempt' ? hang : () => 'draft',
        validate: hung === 'validate' ? (_candidate, ctx) => hang(ctx) : stubborn,
        refine: hung === 'refine' ? hang : ({ input }) => input,
        fallback: hung === 'fallback' ? hang : () => 'fallback',
      };
      const run = track(runLoop(config, 'input'));
      await vi.advanceTimersByTimeAsync(299);
      expect(run.settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1001);
      const outcome = run.value as LoopOutcome;
      expect(outcome.status).toBe('ceiling_stop');
      if (outcome.ok) throw new Error('not a stop');
      expect(outcome.error.cap).toBe('deadlineMs');
      expect(outcome.error.inFlight).toBe(hung);
      expect(outcome.error.mayHaveActed).toBe(hung !== 'validate');
      expect(outcome.error.message).toMatch(/deadlineMs 300 ms/);
      expect(aborted).toBeInstanceOf(Error);
    },
  );

  it('counts retry waits: a retry delay longer than what is left ends the run at the deadline', async () => {
    const run = track(
      runLoop(
        {
          deadlineMs: 300,
          attempt: () => {
            throw transientFailure('503', { effect: 'none', retryAfterMs: 5000 });
          },
          validate: valid,
        },
        'x',
      ),
    );
    await vi.advanceTimersByTimeAsync(1300);
    const outcome = run.value as LoopOutcome;
    expect(outcome.status).toBe('ceiling_stop');
    if (outcome.ok) throw new Error('not a stop');
    expect(outcome.error).toMatchObject({ cap: 'deadlineMs', inFlight: null, mayHaveActed: false });
  });

  it('does not count review time: a run paused longer than its deadline still proceeds', async () => {
    const store = new MemoryCheckpointStore();
    const config = {
      deadlineMs: 300,
      review: { beforeProceed: true },
      attempt: () => 'draft',
      validate: valid,
    };
    const paused = await runLoop(config, 'x', { store, runId: 'review' });
    expect(paused.status).toBe('paused');
    await vi.advanceTimersByTimeAsync(450);
    const outcome = await resumeLoop(config, {
      store,
      runId: 'review',
      event: { type: 'review.continue' },
    });
    expect(outcome.status).toBe('proceed');
  });

  it('keeps the time left across a pause: the clock runs again after the answer', async () => {
    const store = new MemoryCheckpointStore();
    let calls = 0;
    const config = {
      deadlineMs: 400,
      attempt: async ({ answers }: { answers: readonly unknown[] }) => {
        calls += 1;
        if (answers.length === 0) {
          await new Promise((r) => setTimeout(r, 250));
          return clarificationRequest({ question: 'which?' });
        }
        return never();
      },
      validate: valid,
    };
    const paused = track(runLoop(config, 'x', { store, runId: 'ask' }));
    await vi.advanceTimersByTimeAsync(250);
    expect((paused.value as { status?: string } | undefined)?.status).toBe('paused');
    await vi.advanceTimersByTimeAsync(500);
    const resumed = track(
      resumeLoop(config, {
        store,
        runId: 'ask',
        event: { type: 'clarification.answer', answer: 'a' },
      }),
    );
    // 150 ms were left when it paused; the 500 ms pause did not count
    await vi.advanceTimersByTimeAsync(149);
    expect(resumed.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((resumed.value as LoopOutcome | undefined)?.status).toBe('ceiling_stop');
    expect(calls).toBe(2);
  });

  it('with deadlineMs: null a long step is not cut off', async () => {
    const run = track(
      runLoop(
        {
          deadlineMs: null,
          attempt: () => new Promise<string>((r) => setTimeout(() => r('late'), 50_000)),
          validate: valid,
        },
        'x',
      ),
    );
    await vi.advanceTimersByTimeAsync(50_000);
    expect((run.value as LoopOutcome | undefined)?.status).toBe('proceed');
  });
});
