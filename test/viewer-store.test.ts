import { runPipeline } from 'loopchart/pipeline';
import { parseInspection, RunStore } from 'loopchart/viewer';
import { describe, expect, it } from 'vitest';
import { toWireEvent } from '../src/tools/viewer/toWireEvent.js';

const actor = (sessionId: string, rootId: string, extra: object = {}) =>
  JSON.stringify({ type: '@xstate.actor', sessionId, rootId, name: 'loop', ...extra });
const event = (sessionId: string, rootId: string, type = 'tick') =>
  JSON.stringify({ type: '@xstate.event', sessionId, rootId, event: { type } });
const snapshot = (sessionId: string, snapshotValue: object) =>
  JSON.stringify({
    type: '@xstate.snapshot',
    sessionId,
    rootId: sessionId,
    event: { type: 'x' },
    snapshot: snapshotValue,
  });
const parsed = (text: string) => {
  const message = parseInspection(text);
  if (!message) throw new Error(`did not parse: ${text}`);
  return message;
};

describe('parseInspection: untrusted frames', () => {
  it.each([
    ['not JSON', '{"type":'],
    ['an array', '[1,2]'],
    ['null', 'null'],
    ['a string', '"@xstate.actor"'],
    ['an unknown type', '{"type":"@xstate.microstep","sessionId":"x:0"}'],
    ['no session id', '{"type":"@xstate.event","event":{"type":"go"}}'],
    ['a numeric session id', '{"type":"@xstate.event","sessionId":5,"event":{"type":"go"}}'],
    [
      'a snapshot that is not an object',
      '{"type":"@xstate.snapshot","sessionId":"x:0","snapshot":"hi"}',
    ],
    [
      'a definition that is not a string',
      '{"type":"@xstate.actor","sessionId":"x:0","definition":{}}',
    ],
    ['deep nesting', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
  ])('ignores %s', (_name, text) => {
    expect(parseInspection(text)).toBeUndefined();
  });

  it('reads the three event kinds of @statelyai/inspect', () => {
    expect(parsed(actor('x:1', 'x:0', { parentId: 'x:0', definition: '{}' }))).toMatchObject({
      type: '@xstate.actor',
      sessionId: 'x:1',
      parentId: 'x:0',
    });
    expect(parsed(event('x:0', 'x:0', 'go'))).toMatchObject({ event: 'go' });
    expect(parsed(snapshot('x:0', { value: 'a', status: 'active' }))).toMatchObject({
      snapshot: { value: 'a' },
    });
  });
});

describe('RunStore: bounded memory', () => {
  it('keeps at most maxEventsPerRun events per run and counts the dropped ones', () => {
    const store = new RunStore({ maxEventsPerRun: 5 });
    for (let i = 0; i < 12; i += 1) store.ingest('c1', parsed(event('x:0', 'x:0', `e${i}`)));
    const [run] = store.list();
    expect(store.events(run?.id ?? '').map((e) => e.type)).toEqual([
      'e7',
      'e8',
      'e9',
      'e10',
      'e11',
    ]);
    expect(run).toMatchObject({ eventCount: 12, droppedEvents: 7 });
    expect(run?.recentEvents).toHaveLength(5);
  });

  it('keeps at most maxRuns runs, dropping finished runs before running ones', () => {
    const store = new RunStore({ maxRuns: 3 });
    store.ingest('c1', parsed(snapshot('a', { value: 'x', status: 'active' })));
    store.ingest('c1', parsed(snapshot('b', { value: 'done', status: 'done' })));
    store.ingest('c1', parsed(snapshot('c', { value: 'x', status: 'active' })));
    const evicted = store.ingest(
      'c1',
      parsed(snapshot('d', { value: 'x', status: 'active' })),
    ).evicted;
    expect(evicted).toEqual(['c1/b']);
    expect(store.list().map((run) => run.id)).toEqual(['c1/a', 'c1/c', 'c1/d']);
    expect(store.ingest('c1', parsed(snapshot('e', { status: 'active' }))).evicted).toEqual([
      'c1/a',
    ]);
  });

  it('keeps runs of two connections apart even when both roots are x:0', () => {
    const store = new RunStore();
    store.ingest('c1', parsed(actor('x:0', 'x:0', { definition: '{}' })));
    store.ingest('c2', parsed(actor('x:0', 'x:0', { definition: '{}' })));
    expect(store.list().map((run) => [run.id, run.label])).toEqual([
      ['c1/x:0', 'loop #1'],
      ['c2/x:0', 'loop #2'],
    ]);
    expect(store.disconnect('c2').map((run) => [run.id, run.connected])).toEqual([
      ['c2/x:0', false],
    ]);
  });

  it('reads the loop counters, trace and outcome from root snapshots, and only from the root', () => {
    const store = new RunStore();
    const context = {
      retryCount: 3,
      settings: { maxRetries: 5 },
      candidate: 'c',
      trace: [{ seq: 1, state: 'attempting' }],
    };
    store.ingest('c1', parsed(snapshot('x:0', { value: 'refining', status: 'active', context })));
    const child = {
      type: '@xstate.snapshot',
      sessionId: 'x:1',
      rootId: 'x:0',
      event: { type: 'y' },
      snapshot: { status: 'done', context: { retryCount: 9 } },
    };
    const { run } = store.ingest('c1', parsed(JSON.stringify(child)));
    expect(run).toMatchObject({
      value: 'refining',
      retryCount: 3,
      maxRetries: 5,
      candidate: 'c',
      trace: [{ seq: 1 }],
    });
  });

  it('takes nothing on trust: bad counters are dropped, deep values are cut, every view serialises', () => {
    const store = new RunStore();
    let deep: unknown = 'bottom';
    for (let i = 0; i < 1000; i += 1) deep = { deep };
    const context = {
      retryCount: '5',
      settings: { maxRetries: -1 },
      candidate: deep,
      trace: 'nope',
    };
    const { run } = store.ingest(
      'c1',
      parsed(snapshot('x:0', { value: deep, status: 'weird', context })),
    );
    expect(run.retryCount).toBeUndefined();
    expect(run.maxRetries).toBeUndefined();
    expect(run.status).toBe('active');
    expect(run.trace).toEqual([]);
    expect(JSON.stringify(run)).toContain('[depth limit]');
  });
});

describe('RunStore: linked runs', () => {
  it("lists a pipeline's stage loops as runs of their own, linked to the pipeline's run", async () => {
    const store = new RunStore();
    const loop = { maxRetries: 2, attempt: () => 'x', validate: () => ({ valid: true as const }) };
    const definitions: string[] = [];
    await runPipeline(
      {
        id: 'report',
        stages: [
          { id: 'find', loop },
          { id: 'sum', dependsOn: ['find'], loop },
        ],
      },
      'q',
      {
        inspect: {
          next: (event) => {
            const wire = toWireEvent(event);
            if (!wire) return;
            const { linked } = store.ingest('c1', parsed(JSON.stringify(wire)));
            if (linked?.definition) definitions.push(linked.run.machineId);
          },
        },
      },
    );
    const runs = store.list();
    const pipeline = runs.find((run) => run.parentId === undefined);
    expect(pipeline).toMatchObject({ machineId: 'report', status: 'done' });
    const stages = runs.filter((run) => run.parentId === pipeline?.id);
    expect(stages.map((run) => run.machineId)).toEqual(['stage:find', 'stage:sum']);
    expect(definitions).toEqual(['stage:find', 'stage:sum']);
    for (const stage of stages) {
      expect(stage).toMatchObject({ status: 'done', output: { status: 'proceed' } });
      expect(stage.steps?.at(-1)).toEqual(['proceed']);
    }
    // The loops' own invoked steps (promise actors) are not runs.
    expect(runs).toHaveLength(3);
  });
});
