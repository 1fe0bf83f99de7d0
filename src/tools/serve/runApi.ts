import type { AnyLoopConfig, PipelinePlan } from '../../runners/pipeline/pipelinePlan.js';
import type { CheckpointStore } from '../../stores/kit/CheckpointStore.js';
import type { HealthReport } from '../health/HealthReport.js';
import { loopHealth } from '../health/loopHealth.js';
import { parseWindow } from '../health/parseWindow.js';
import { answerRun, type Drives, type Registered } from './answerRun.js';
import { type ApiReply, badRequest, refuse, replyForError } from './apiReply.js';
import {
  type AnswerResponse,
  answerRequestSchema,
  healthQuerySchema,
  listQuerySchema,
} from './apiSchemas.js';
import { checkRegistered } from './checkRegistered.js';
import { runDetail } from './runDetail.js';
import { ListQueryError, listRuns } from './runList.js';
import type { RunDetail, RunList } from './runSchemas.js';

/** What the run API reads from and drives. */
export interface RunApiOptions {
  store: CheckpointStore;
  /** The loop configs answers may drive, by machine id (`config.id ?? 'loop'`). */
  loops?: Readonly<Record<string, AnyLoopConfig>>;
  /** The pipeline plans answers may drive, by plan id. */
  pipelines?: Readonly<Record<string, PipelinePlan>>;
  /** The agents whose owner choice briefs answers may decide (`shape.choose`), by `config.id`. */
  agents?: Registered['agents'];
  /** Whether `answer` may drive runs; off, it refuses with `answers_disabled`. */
  answers: boolean;
  /** How a run driven after an answer failed later (the answer itself was replied to). */
  onRunError?: (runId: string, error: unknown) => void;
}

/** The run API without a transport: HTTP (`serveRuns`) and MCP (`createRunsMcpServer`) share it. */
export interface RunApi {
  list(query: Record<string, unknown>): Promise<ApiReply<RunList>>;
  show(runId: string): Promise<ApiReply<RunDetail>>;
  health(query: Record<string, unknown>): Promise<ApiReply<HealthReport>>;
  answer(runId: string, body: unknown): Promise<ApiReply<AnswerResponse>>;
  /** Waits for the runs answers started to end or pause. */
  drain(): Promise<void>;
}

/**
 * The run API over a store: list, show, health and (when enabled) answer. Every method replies
 * with data or a typed refusal and never throws for bad input or a store that fails; loops keyed
 * by anything but their id throw `LoopConfigError` here, at creation.
 * @example const api = createRunApi({ store, loops: { invoice: invoiceLoop }, answers: true });
 *          const { status, body } = await api.show('invoice-42');
 */
export function createRunApi(options: RunApiOptions): RunApi {
  const { store } = options;
  const registered = {
    loops: options.loops ?? {},
    pipelines: options.pipelines ?? {},
    agents: options.agents ?? {},
  };
  checkRegistered(registered.loops, registered.pipelines, registered.agents);
  const drives: Drives = new Set();
  const onRunError = options.onRunError ?? (() => {});
  const guard = async <T>(work: () => Promise<ApiReply<T>>): Promise<ApiReply<T>> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ListQueryError) return refuse(400, 'bad_request', error.message);
      return replyForError(error);
    }
  };
  return {
    list: (query) =>
      guard(async () => {
        const parsed = listQuerySchema.safeParse(query);
        if (!parsed.success) return badRequest('query', parsed.error);
        return { ok: true, status: 200, body: await listRuns(store, parsed.data) };
      }),
    show: (runId) =>
      guard(async () => {
        const record = await store.load(runId);
        if (!record) return refuse(404, 'not_found', `no run '${runId}'`);
        return { ok: true, status: 200, body: runDetail(record) };
      }),
    health: (query) =>
      guard(async () => {
        const parsed = healthQuerySchema.safeParse(query);
        if (!parsed.success) return badRequest('query', parsed.error);
        const window = parseWindow(parsed.data, Date.now());
        if (typeof window === 'string') return refuse(400, 'bad_request', window);
        const loop = parsed.data.loop;
        const report = await loopHealth(store, { ...window, ...(loop ? { loop } : {}) });
        return { ok: true, status: 200, body: report };
      }),
    answer: (runId, body) =>
      guard(async () => {
        if (!options.answers) {
          return refuse(
            403,
            'answers_disabled',
            'answering is not enabled on this server (start it with a token and the loops it may drive)',
          );
        }
        const parsed = answerRequestSchema.safeParse(body);
        if (!parsed.success) return badRequest('body', parsed.error);
        return answerRun(store, registered, runId, parsed.data, drives, onRunError);
      }),
    drain: async () => {
      while (drives.size > 0) await Promise.all(drives);
    },
  };
}
