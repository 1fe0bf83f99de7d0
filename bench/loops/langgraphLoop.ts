import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import {
  attempt,
  type Draft,
  type LoopImplementation,
  MAX_RETRIES,
  refine,
  type Task,
  type Verdict,
  validate,
} from './workload.js';

const State = Annotation.Root({
  input: Annotation<Task>,
  candidate: Annotation<Draft | undefined>,
  verdict: Annotation<Verdict | undefined>,
  retries: Annotation<number>,
});
type LoopState = typeof State.State;

/** What many users pick instead: a StateGraph with the three nodes and a conditional edge. */
const graph = new StateGraph(State)
  .addNode('attempt', async (state: LoopState) => ({ candidate: await attempt(state.input) }))
  .addNode('validate', async (state: LoopState) => ({
    verdict: await validate(state.candidate as Draft),
  }))
  .addNode('refine', async (state: LoopState) => ({
    input: await refine(
      state.input,
      state.verdict?.valid ? undefined : state.verdict?.error.message,
    ),
    retries: state.retries + 1,
  }))
  .addEdge(START, 'attempt')
  .addEdge('attempt', 'validate')
  .addConditionalEdges(
    'validate',
    (state: LoopState) => (state.verdict?.valid || state.retries >= MAX_RETRIES ? END : 'refine'),
    ['refine', END],
  )
  .addEdge('refine', 'attempt')
  .compile();

// One super-step per node visit: 6 attempts + 6 validations + 5 refines, with room to spare.
const recursionLimit = 4 * (MAX_RETRIES + 1);

export const langgraphLoop: LoopImplementation = {
  name: 'LangGraph JS StateGraph',
  async run(task) {
    const state = await graph.invoke({ input: task, retries: 0 }, { recursionLimit });
    return { candidate: state.candidate, iterations: state.retries };
  },
};
