/**
 * A DBOS process for the DBOS tests: registers the test loops and pipeline, launches DBOS as
 * executor EXECUTOR_ID on SYSTEM_DB, serves the queue `loops`, and takes JSON commands on stdin
 * (start, answer, cancel, recover, outcome). Replies and journal lines are JSON; attempts append
 * their side effects to JOURNAL with appendFileSync, so a SIGKILL cannot lose a written one.
 */

import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { DBOS } from '@dbos-inc/dbos-sdk';
import { z } from 'zod';

const { LIB, SYSTEM_DB, EXECUTOR_ID, JOURNAL } = process.env;
const STEP_MS = Number(process.env.STEP_MS ?? 20);
const RETRY_MS = Number(process.env.RETRY_MS ?? 3000);
const { transientFailure } = await import(`${LIB}/entries/index.js`);
const { ANSWER_TOPIC, registerLoop, registerPipeline, recoverExecutor } = await import(
  `${LIB}/entries/dbos.js`
);

const sleep = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
const journal = (entry) =>
  appendFileSync(
    JOURNAL,
    `${JSON.stringify({ ...entry, executor: EXECUTOR_ID, at: Date.now() })}\n`,
  );

const attempt = (loop) => async (ctx) => {
  const runId = DBOS.workflowID;
  journal({ type: 'effect', loop, runId, attempt: ctx.attempt });
  await sleep(STEP_MS);
  journal({ type: 'done', loop, runId, attempt: ctx.attempt });
  return `draft ${ctx.attempt} of ${ctx.input.name}`;
};
const validate = (_candidate, ctx) =>
  ctx.attempt > ctx.input.refines
    ? { valid: true }
    : {
        valid: false,
        error: { severity: 'correctable', message: `needs ${ctx.input.refines} refines` },
      };

const loops = {
  side: registerLoop({ attempt: attempt('side'), validate, maxRetries: 3 }, { name: 'side' }),
  pure: registerLoop(
    { attempt: attempt('pure'), validate, maxRetries: 3, idempotent: { attempt: true } },
    { name: 'pure' },
  ),
  reviewed: registerLoop(
    {
      attempt: attempt('reviewed'),
      validate,
      review: { beforeProceed: true },
      answers: { candidate: z.string() },
    },
    { name: 'reviewed' },
  ),
  retrying: registerLoop(
    {
      attempt: async (ctx) => {
        journal({ type: 'effect', loop: 'retrying', runId: DBOS.workflowID, attempt: ctx.attempt });
        if (ctx.attempt === 1)
          throw transientFailure('busy', { effect: 'none', retryAfterMs: RETRY_MS });
        return 'second time lucky';
      },
      validate,
    },
    { name: 'retrying' },
  ),
  deadlined: registerLoop(
    {
      attempt: async (ctx) => {
        journal({
          type: 'effect',
          loop: 'deadlined',
          runId: DBOS.workflowID,
          attempt: ctx.attempt,
        });
        await sleep(60_000, ctx.signal);
        return 'late';
      },
      validate,
      idempotent: { attempt: true },
      deadlineMs: Number(process.env.DEADLINE_MS ?? 4000),
    },
    { name: 'deadlined' },
  ),
  retryThenHang: registerLoop(
    {
      attempt: async (ctx) => {
        journal({
          type: 'effect',
          loop: 'retryThenHang',
          runId: DBOS.workflowID,
          attempt: ctx.attempt,
        });
        if (ctx.attempt === 1)
          throw transientFailure('busy', { effect: 'none', retryAfterMs: 1000 });
        await sleep(60_000, ctx.signal);
        return 'late';
      },
      validate,
      deadlineMs: 3000,
    },
    { name: 'retryThenHang' },
  ),
  reviewedDeadline: registerLoop(
    {
      attempt: async (ctx) => {
        journal({
          type: 'effect',
          loop: 'reviewedDeadline',
          runId: DBOS.workflowID,
          attempt: ctx.attempt,
        });
        if (ctx.attempt >= 2) await sleep(60_000, ctx.signal);
        return `draft ${ctx.attempt}`;
      },
      validate: () => ({ valid: true }),
      review: { beforeProceed: true },
      idempotent: { attempt: true },
      deadlineMs: Number(process.env.DEADLINE_MS ?? 4000),
    },
    { name: 'reviewedDeadline' },
  ),
  slow: registerLoop(
    {
      attempt: async (ctx) => {
        journal({ type: 'effect', loop: 'slow', runId: DBOS.workflowID, attempt: ctx.attempt });
        await sleep(60_000, ctx.signal);
        return 'late';
      },
      validate,
    },
    { name: 'slow' },
  ),
};

const stage = (id) => ({
  attempt: async (ctx) => {
    journal({ type: 'effect', loop: `stage:${id}`, runId: DBOS.workflowID, attempt: ctx.attempt });
    await sleep(id === 'left' ? 25 * STEP_MS : STEP_MS);
    journal({ type: 'done', loop: `stage:${id}`, runId: DBOS.workflowID, attempt: ctx.attempt });
    return `${id}(${JSON.stringify(ctx.input)})`;
  },
  validate: () => ({ valid: true }),
});
const pipelines = {
  diamond: registerPipeline(
    {
      id: 'diamond',
      stages: [
        { id: 'top', loop: stage('top') },
        { id: 'left', dependsOn: ['top'], loop: stage('left') },
        { id: 'right', dependsOn: ['top'], loop: { ...stage('right'), idempotent: true } },
        { id: 'bottom', dependsOn: ['left', 'right'], loop: stage('bottom') },
      ],
      crossCheck: () => ({ valid: true }),
    },
    { name: 'diamond' },
  ),
  reviewedStage: registerPipeline(
    {
      id: 'reviewedStage',
      stages: [
        { id: 'draft', loop: { ...stage('draft'), review: { beforeProceed: true } } },
        { id: 'publish', dependsOn: ['draft'], loop: stage('publish') },
      ],
    },
    { name: 'reviewedStage' },
  ),
};

DBOS.setConfig({
  name: 'loopchart-test',
  systemDatabaseUrl: SYSTEM_DB,
  executorID: EXECUTOR_ID,
  logLevel: 'error',
});
// a run this executor left is recovered inside launch(), never before this line
journal({ type: 'launching' });
await DBOS.launch();
await DBOS.registerQueue('loops', {
  workerConcurrency: Number(process.env.CONCURRENCY ?? 8),
  minPollingIntervalMs: 50,
});

const reply = (message) => process.stdout.write(`@@${JSON.stringify(message)}\n`);
const handlers = {
  start: ({ loop, runId, input, queue }) =>
    (loops[loop] ?? pipelines[loop])
      .start(input, { workflowID: runId, ...(queue ? { queueName: queue } : {}) })
      .then(() => ({})),
  answer: ({ loop, runId, event, pause }) =>
    (loops[loop] ?? pipelines[loop]).answer(runId, event, pause ? { pause } : {}).then(() => ({})),
  pending: ({ loop, runId }) =>
    (loops[loop] ?? pipelines[loop]).pending(runId).then((pending) => ({ pending })),
  cancel: ({ loop, runId }) => (loops[loop] ?? pipelines[loop]).cancel(runId).then(() => ({})),
  outcome: ({ loop, runId }) =>
    (loops[loop] ?? pipelines[loop]).outcome(runId).then((outcome) => ({ outcome })),
  status: ({ runId }) => DBOS.getWorkflowStatus(runId).then((s) => ({ status: s?.status ?? null })),
  send: ({ runId, message }) => DBOS.send(runId, message, ANSWER_TOPIC).then(() => ({})),
  recover: ({ executor }) => recoverExecutor(executor).then((ids) => ({ ids })),
};
createInterface({ input: process.stdin }).on('line', async (line) => {
  const command = JSON.parse(line);
  try {
    reply({ id: command.id, ...(await handlers[command.cmd](command)) });
  } catch (error) {
    reply({
      id: command.id,
      error: { name: error?.name, code: error?.code, message: String(error?.message ?? error) },
    });
  }
});
reply({ ready: EXECUTOR_ID });
