import { createInspector } from '@statelyai/inspect';
import { describe, expect, it } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { graphFromDefinition } from '../src/tools/viewer/graphFromDefinition.js';
import { inspectorFlushed } from './support/inspectorFlushed.js';

/** Deep enough that `@statelyai/inspect` (depth limit 10) cuts off the innermost transition. */
const deep = createMachine({
  id: 'deep',
  initial: 'a',
  states: {
    a: {
      initial: 'b',
      on: { OUT: 'z' },
      states: {
        b: {
          initial: 'c',
          states: {
            c: { initial: 'd', states: { d: { on: { GO: { target: 'e' } } }, e: {} } },
          },
        },
      },
    },
    z: { type: 'final' },
  },
});

/** The `definition` the real inspector sends for `machine`, with its default options. */
async function definitionSent(machine: typeof deep): Promise<string> {
  const sent: Array<{ type: string; definition?: string }> = [];
  const inspector = createInspector({ send: (event) => void sent.push(event as never) });
  const actor = createActor(machine, { inspect: inspector.inspect }).start();
  await inspectorFlushed();
  actor.stop();
  const definition = sent.find((event) => event.type === '@xstate.actor')?.definition;
  if (definition === undefined) throw new Error('the inspector sent no definition');
  return definition;
}

describe('graphFromDefinition', () => {
  it("draws a machine the inspector's depth limit cut off, down to the cut", async () => {
    const definition = await definitionSent(deep);
    expect(definition).toContain('"GO":"[Object]"');
    const graph = graphFromDefinition(definition);
    const ids = graph.nodes.map((node) => node.id);
    expect(ids).toEqual(
      expect.arrayContaining(['deep.a', 'deep.a.b.c.d', 'deep.a.b.c.e', 'deep.z']),
    );
    expect(graph.edges.some((edge) => edge.source === 'deep.a' && edge.target === 'deep.z')).toBe(
      true,
    );
  });

  it('rejects a definition that is not a machine config', () => {
    expect(() => graphFromDefinition('[1,2]')).toThrow(/not a machine config/);
  });
});
