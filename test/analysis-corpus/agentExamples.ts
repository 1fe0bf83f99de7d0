// LLM agent examples from statelyai/agent (MIT licence): machines whose steps are decided by a
// model. Collected for issue 30 as part of a second held-out set, classified by hand (the comment
// over each machine lists its cycles and why each is or is not automated, and `automated` lists
// the automated ones) and committed before the checker ran on them. Transcribed as the other
// corpus files are: states, transitions, guards, timers, invokes and each `assign`'s keys; the
// library's actor creators are written out below as what they do, helpers the sources call are
// stubbed. Machines without an id in the source get one named after the example.
import {
  type AnyEventObject,
  assign,
  createMachine,
  fromCallback,
  fromObservable,
  fromPromise,
  log,
  setup,
} from 'xstate';
import type { CorpusEntry } from './CorpusEntry.js';

const REPO = 'statelyai/agent';
const AT = 'deade593a78677d1d3725cf78a904a932d3b479d';
const at = (file: string, commit = AT) => `${REPO} examples/${file}@${commit}`;

// Stand-ins for the model and the console: opaque, as the originals are to the checker.
const model = {
  plan: async (_input: unknown): Promise<{ nextEvent?: AnyEventObject }> => ({}),
  text: async (_input: unknown) => '',
  stream: (_input: unknown) => ({ subscribe: () => ({ unsubscribe: () => {} }) }),
};
const loadingAnimation = (_text: unknown) => ({ stop: () => {} });

/**
 * The library's `fromDecision(agent)`: a promise actor that asks the model for a plan given the
 * parent's state and goal, and sends the plan's next event (one of the agent's events, chosen by
 * the model) to the parent.
 */
const fromDecision = () =>
  fromPromise(
    async ({
      input,
      self,
    }: {
      input: unknown;
      self: { _parent?: { send(e: AnyEventObject): void } };
    }) => {
      const parentRef = self._parent;
      if (!parentRef) return undefined;
      const plan = await model.plan(input);
      if (plan.nextEvent) parentRef.send(plan.nextEvent);
      return plan;
    },
  );
/** The library's `fromText(agent)`: a promise actor that resolves to the model's text. */
const fromText = () =>
  fromPromise(async ({ input }: { input: unknown }) => ({ text: await model.text(input) }));
/** The library's `fromTextStream(agent)`: an observable of the model's text deltas. */
const fromTextStream = () => fromObservable(({ input }: { input: unknown }) => model.stream(input));
/** The examples' `fromTerminal` helper: prints its input and resolves to the next line typed. */
const fromTerminal = fromPromise<string, string>(async ({ input }) => {
  return new Promise<string>((resolve) => {
    console.log(`${input}\n`);
    const listener = (data: Buffer) => {
      process.stdin.off('data', listener);
      resolve(data.toString().trim());
    };
    process.stdin.on('data', listener);
  });
});

type Ctx = Record<string, unknown>;
type Ev = AnyEventObject;

// Chatbot. listening reads the terminal, responding asks the model (respond or end).
// Cycles: listening → responding → listening, gated by the terminal. Automated: none.
const chatbot = setup({
  types: { context: {} as Ctx, events: {} as Ev },
  actors: { agent: fromDecision(), getFromTerminal: fromTerminal },
}).createMachine({
  id: 'chatbot',
  initial: 'listening',
  context: { userMessage: '' },
  states: {
    listening: {
      invoke: {
        src: 'getFromTerminal',
        input: 'User:',
        onDone: {
          actions: assign({ userMessage: ({ event }) => event.output }),
          target: 'responding',
        },
      },
    },
    responding: {
      invoke: {
        src: 'agent',
        input: ({ context }: { context: Ctx }) => ({ context, goal: 'Respond to the user' }),
      },
      on: {
        'agent.respond': { actions: log(({ event }) => event.response), target: 'listening' },
        'agent.endConversation': 'finished',
      },
    },
    finished: { type: 'final' },
  },
  exit: () => undefined,
});

// Chain of thought: asking (terminal) → thinking → answering → answered. Cycles: none.
const cot = setup({
  types: { context: {} as Ctx, events: {} as Ev },
  actors: { agent: fromDecision(), getFromTerminal: fromTerminal },
}).createMachine({
  id: 'cot',
  initial: 'asking',
  context: { question: null, thought: null },
  states: {
    asking: {
      invoke: {
        src: 'getFromTerminal',
        input: 'What would you like to ask?',
        onDone: { actions: assign({ question: ({ event }) => event.output }), target: 'thinking' },
      },
    },
    thinking: {
      invoke: {
        src: 'agent',
        input: ({ context }: { context: Ctx }) => ({ context, goal: 'Think step by step' }),
      },
      on: {
        'agent.think': {
          actions: [
            log(({ event }) => event.thought),
            assign({ thought: ({ event }) => event.thought }),
          ],
          target: 'answering',
        },
      },
    },
    answering: {
      invoke: {
        src: 'agent',
        input: ({ context }: { context: Ctx }) => ({ context, goal: 'Answer the question' }),
      },
      on: { 'agent.answer': { actions: log(({ event }) => event.answer), target: 'answered' } },
    },
    answered: { type: 'final' },
  },
});

// Email reply. The model checks whether it has enough to answer; if not it asks the person, who
// answers at the terminal. Cycles: checking → clarifying → checking, gated by the terminal.
// Automated: none.
const email = setup({
  types: {
    context: {} as Ctx,
    events: {} as Ev,
    input: {} as { email: string; instructions: string },
  },
  actors: { agent: fromDecision(), getFromTerminal: fromTerminal },
}).createMachine({
  id: 'email',
  initial: 'checking',
  context: ({ input }) => ({
    email: input.email,
    instructions: input.instructions,
    clarifications: [] as string[],
    replyEmail: null,
  }),
  states: {
    checking: {
      invoke: {
        src: 'agent',
        input: ({ context }: { context: Ctx }) => ({
          context,
          goal: 'Respond or ask for clarification',
        }),
      },
      on: {
        askForClarification: {
          actions: ({ event }) => console.log(event.questions),
          target: 'clarifying',
        },
        submitEmail: { target: 'submitting' },
      },
    },
    clarifying: {
      invoke: {
        src: 'getFromTerminal',
        input: 'Please provide answers to the questions above',
        onDone: {
          actions: assign({
            clarifications: ({ context, event }) =>
              (context.clarifications as string[]).concat(event.output),
          }),
          target: 'checking',
        },
      },
    },
    submitting: {
      invoke: {
        src: 'agent',
        input: ({ context }: { context: Ctx }) => ({ context, goal: 'Create and submit an email' }),
      },
      on: {
        submitEmail: {
          actions: assign({ replyEmail: ({ event }) => event.email }),
          target: 'done',
        },
      },
    },
    done: { type: 'final', entry: ({ context }) => console.log(context.replyEmail) },
  },
  exit: () => undefined,
});

// Two summaries from the model at once, then done when both are in. Cycles: none.
const summaries = setup({
  types: { context: {} as Ctx, events: {} as Ev },
  actors: { agent: fromDecision(), summarizer: fromText() },
}).createMachine({
  id: 'example',
  initial: 'summarizing',
  context: { patientVisit: '…' },
  states: {
    summarizing: {
      invoke: [
        {
          src: 'summarizer',
          input: ({ context }: { context: Ctx }) => ({ context, prompt: 'Summarize in English' }),
          onDone: { actions: assign({ englishSummary: ({ event }) => event.output.text }) },
        },
        {
          src: 'summarizer',
          input: ({ context }: { context: Ctx }) => ({ context, prompt: 'Summarize in Spanish' }),
          onDone: { actions: assign({ spanishSummary: ({ event }) => event.output.text }) },
        },
      ],
      always: {
        guard: ({ context }) => Boolean(context.englishSummary && context.spanishSummary),
        target: 'summarized',
      },
    },
    summarized: { entry: ({ context }) => console.log(context) },
  },
});

// Executor: read a request at the terminal, let the model pick getTime or other, act, ask again.
// Cycles: start → deciding → gettingTime → start and start → deciding → other → start, both
// gated by the terminal read in start. Automated: none.
const executor = createMachine({
  id: 'executor',
  initial: 'start',
  context: { question: null as unknown },
  states: {
    start: {
      invoke: {
        src: fromTerminal,
        input: 'What do you want to do?',
        onDone: { actions: assign({ question: ({ event }) => event.output }), target: 'deciding' },
      },
    },
    deciding: {
      invoke: { src: fromDecision(), input: { goal: 'Satisfy the user question', context: true } },
      on: { getTime: 'gettingTime', other: 'other' },
    },
    gettingTime: {
      invoke: {
        src: fromPromise(async () => console.log('Time:', new Date().toLocaleTimeString())),
        onDone: 'start',
      },
    },
    other: {
      entry: () => console.log('I can only tell the time.'),
      after: { 1000: 'start' },
    },
  },
});

// Goal: question at the terminal, the model states a goal, then responds (a targetless
// transition). `responded` is never entered. Cycles: none.
const goal = setup({
  types: { context: {} as Ctx, events: {} as Ev },
  actors: { decider: fromDecision(), getFromTerminal: fromTerminal },
}).createMachine({
  id: 'goal',
  initial: 'gettingQuestion',
  context: { question: null, goal: null },
  states: {
    gettingQuestion: {
      invoke: {
        src: 'getFromTerminal',
        input: 'What would you like to ask?',
        onDone: {
          actions: assign({ question: ({ event }) => event.output }),
          target: 'makingGoal',
        },
      },
    },
    makingGoal: {
      invoke: {
        src: 'decider',
        input: { context: true, goal: 'Determine the goal', maxRetries: 3 },
      },
      on: {
        'agent.createGoal': {
          actions: [assign({ goal: ({ event }) => event.goal }), log(({ event }) => event)],
          target: 'responding',
        },
      },
    },
    responding: {
      invoke: {
        src: 'decider',
        input: { context: true, goal: 'Answer the question', maxRetries: 3 },
      },
      on: { 'agent.respond': { actions: log(({ event }) => event) } },
    },
    responded: { type: 'final' },
  },
});

// Joke teller: topic at the terminal, the model tells a joke, judges its relevance (irrelevant →
// ask for a new topic), rates it and decides (ask again or end). A loader callback spins beside.
// Cycles: waitingForTopic → tellingJoke → relevance → waitingForTopic, and waitingForTopic →
// tellingJoke → relevance → rateJoke → decide → waitingForTopic; both gated by the terminal.
// Automated: none.
const loader = fromCallback(({ input }: { input: string }) => {
  const anim = loadingAnimation(input);
  return () => anim.stop();
});
const joke = setup({
  types: { context: {} as Ctx, events: {} as Ev },
  actors: { agent: fromDecision(), loader, getFromTerminal: fromTerminal },
}).createMachine({
  id: 'joke',
  context: () => ({
    topic: '',
    jokes: [] as string[],
    desire: null,
    lastRating: null,
    loader: null,
  }),
  initial: 'waitingForTopic',
  states: {
    waitingForTopic: {
      invoke: {
        src: 'getFromTerminal',
        input: 'Give me a joke topic.',
        onDone: { actions: assign({ topic: ({ event }) => event.output }), target: 'tellingJoke' },
      },
    },
    tellingJoke: {
      invoke: [
        {
          src: 'agent',
          input: ({ context }: { context: Ctx }) => ({
            context: { topic: context.topic },
            goal: 'Tell a joke',
          }),
        },
        { src: 'loader', input: () => 'Concocting chuckles...' },
      ],
      on: {
        'agent.tellJoke': {
          actions: [
            assign({ jokes: ({ context, event }) => [...(context.jokes as string[]), event.joke] }),
            log(({ event }) => event.joke),
          ],
          target: 'relevance',
        },
      },
    },
    relevance: {
      invoke: {
        src: 'agent',
        input: ({ context }: { context: Ctx }) => ({ context, goal: 'Is the joke relevant?' }),
      },
      on: {
        'agent.markRelevancy': [
          {
            guard: ({ event }) => !event.relevant,
            actions: log(({ event }) => `Irrelevant joke: ${event.explanation}`),
            target: 'waitingForTopic',
          },
          { target: 'rateJoke' },
        ],
      },
    },
    rateJoke: {
      invoke: [
        {
          src: 'agent',
          input: ({ context }: { context: Ctx }) => ({ context, goal: 'Rate the last joke' }),
        },
        { src: 'loader', input: () => 'Rating roars...' },
      ],
      on: {
        'agent.rateJoke': {
          actions: [
            assign({ lastRating: ({ event }) => event.rating }),
            log(({ event }) => event.rating),
          ],
          target: 'decide',
        },
      },
    },
    decide: {
      invoke: {
        src: 'agent',
        input: ({ context }: { context: Ctx }) => ({ context, goal: 'Choose what to do next' }),
      },
      on: {
        askForTopic: { target: 'waitingForTopic', actions: log('Try again.') },
        'agent.endJokes': { target: 'end', actions: log('Goodbye!') },
      },
    },
    end: { type: 'final' },
  },
  exit: () => undefined,
});

// Debate: after the question (terminal), the model argues for, then against, then for … until
// five responses are in (an always on negativeResponse reading the discourse's length; nobody
// marks it). Cycles: positiveResponse → negativeResponse → positiveResponse, driven by the
// decision actor alone: automated.
const debate = setup({
  types: { context: {} as { topic: string | null; discourse: string[] }, events: {} as Ev },
  actors: { getFromTerminal: fromTerminal, agent: fromDecision() },
}).createMachine({
  id: 'multi',
  initial: 'asking',
  context: { topic: null, discourse: [] },
  states: {
    asking: {
      invoke: {
        src: 'getFromTerminal',
        input: 'What is the question?',
        onDone: {
          actions: assign({ topic: ({ event }) => event.output }),
          target: 'positiveResponse',
        },
      },
    },
    positiveResponse: {
      invoke: {
        src: 'agent',
        input: ({ context }: { context: Ctx }) => ({ context, goal: 'Take the positive position' }),
      },
      on: {
        'agent.respond': {
          actions: [
            assign({ discourse: ({ context, event }) => context.discourse.concat(event.response) }),
            log(({ event }) => event.response),
          ],
          target: 'negativeResponse',
        },
      },
    },
    negativeResponse: {
      invoke: {
        src: 'agent',
        input: ({ context }: { context: Ctx }) => ({ context, goal: 'Take the negative position' }),
      },
      on: {
        'agent.respond': {
          actions: [
            assign({ discourse: ({ context, event }) => context.discourse.concat(event.response) }),
            log(({ event }) => event.response),
          ],
          target: 'positiveResponse',
        },
      },
      always: { guard: ({ context }) => context.discourse.length >= 5, target: 'debateOver' },
    },
    debateOver: { type: 'final' },
  },
  exit: () => undefined,
});

// Newspaper: search → curate → write → critique (done, or revise) and revise re-enters itself on
// each revision until more than three (an always on revisionCount, incremented on entry; not
// marked). Cycles: revise → revise (reenter on the revision's onDone): automated.
const newspaper = setup({
  types: {
    context: {} as {
      topic: string;
      revisionCount: number;
      article?: string;
      critique?: string;
      searchResults?: string;
    },
  },
  actors: {
    search: fromPromise(async ({ input }: { input: unknown }) => model.text(input)),
    curate: fromPromise(async ({ input }: { input: unknown }) => model.text(input)),
    critique: fromPromise(
      async ({ input }: { input: unknown }) => model.text(input) as Promise<string | undefined>,
    ),
    write: fromPromise(async ({ input }: { input: unknown }) => model.text(input)),
    revise: fromPromise(async ({ input }: { input: unknown }) => model.text(input)),
  },
}).createMachine({
  id: 'newspaper',
  context: { topic: 'Orlando', revisionCount: 0 },
  initial: 'search',
  states: {
    search: {
      invoke: {
        src: 'search',
        input: ({ context }: { context: Ctx }) => ({ topic: context.topic }),
        onDone: {
          actions: assign({ searchResults: ({ event }) => event.output }),
          target: 'curate',
        },
      },
    },
    curate: {
      invoke: {
        src: 'curate',
        input: ({ context }: { context: Ctx }) => context,
        onDone: {
          actions: assign({ searchResults: ({ event }) => event.output }),
          target: 'write',
        },
      },
    },
    write: {
      invoke: {
        src: 'write',
        input: ({ context }: { context: Ctx }) => context,
        onDone: { actions: assign({ article: ({ event }) => event.output }), target: 'critique' },
      },
    },
    critique: {
      invoke: {
        src: 'critique',
        input: ({ context }: { context: Ctx }) => context,
        onDone: [
          { guard: ({ event }) => event.output === undefined, target: 'done' },
          { actions: assign({ article: ({ event }) => event.output }), target: 'revise' },
        ],
      },
    },
    revise: {
      always: { guard: ({ context }) => context.revisionCount > 3, target: 'done' },
      entry: assign({ revisionCount: ({ context }) => context.revisionCount + 1 }),
      invoke: {
        src: 'revise',
        input: ({ context }: { context: Ctx }) => context,
        onDone: {
          actions: assign({ article: ({ event }) => event.output }),
          target: 'revise',
          reenter: true,
        },
      },
    },
    done: { type: 'final' },
  },
});

// Number guesser: the person picks a number at the terminal, then the model guesses, re-entering
// guessing on every guess until an always sees the right one. Nothing caps the guesses.
// Cycles: guessing → guessing (reenter on agent.guess): automated.
const numberGuesser = setup({
  types: { context: {} as { previousGuesses: number[]; answer: number | null }, events: {} as Ev },
  actors: { agent: fromDecision(), getFromTerminal: fromTerminal },
}).createMachine({
  id: 'number',
  context: { answer: null, previousGuesses: [] },
  initial: 'providing',
  states: {
    providing: {
      invoke: {
        src: 'getFromTerminal',
        input: 'Enter a number between 1 and 10',
        onDone: { actions: assign({ answer: ({ event }) => +event.output }), target: 'guessing' },
      },
    },
    guessing: {
      always: {
        guard: ({ context }) => context.answer === context.previousGuesses.at(-1),
        target: 'winner',
      },
      invoke: {
        src: 'agent',
        input: ({ context }: { context: Ctx }) => ({
          goal: `Guess; previous: ${context.previousGuesses}`,
        }),
      },
      on: {
        'agent.guess': {
          actions: [
            assign({
              previousGuesses: ({ context, event }) => [...context.previousGuesses, event.number],
            }),
            log(({ event }) => event.number),
          ],
          target: 'guessing',
          reenter: true,
        },
      },
    },
    winner: { entry: log('You guessed the correct number!'), type: 'final' },
  },
  exit: () => undefined,
});

// Raffle: entries are typed at the terminal; after each, the model decides to collect more or to
// draw. Cycles: entering → determining → entering, gated by the terminal. Automated: none.
const raffle = setup({
  types: { context: {} as { lastInput: string | null; entries: string[] }, events: {} as Ev },
  actors: { agent: fromDecision(), getFromTerminal: fromTerminal },
}).createMachine({
  id: 'raffle',
  context: { lastInput: null, entries: [] },
  initial: 'entering',
  states: {
    entering: {
      entry: log(({ context }) => context.entries),
      invoke: {
        src: 'getFromTerminal',
        input: 'What technology are you most interested in right now?',
        onDone: [
          { actions: assign({ lastInput: ({ event }) => event.output }), target: 'determining' },
        ],
      },
    },
    determining: {
      invoke: { src: 'agent', input: { context: true, goal: 'Get more entries or draw' } },
      on: {
        'agent.collectEntries': {
          target: 'entering',
          actions: assign({
            entries: ({ context }) => [...context.entries, context.lastInput as string],
            lastInput: null,
          }),
        },
        'agent.draw': 'drawing',
      },
    },
    drawing: {
      entry: log('And the winner is...'),
      invoke: { src: 'agent', input: { context: true, goal: 'Choose the winner' } },
      on: {
        'agent.reportWinner': { actions: log(({ event }) => event.winningEntry), target: 'winner' },
      },
    },
    winner: { type: 'final' },
  },
  exit: () => undefined,
});

// One thought from the model. Cycles: none.
const simple = setup({
  types: { events: {} as Ev },
  actors: { agent: fromDecision() },
}).createMachine({
  id: 'simple',
  initial: 'thinking',
  states: {
    thinking: {
      invoke: { src: 'agent', input: 'Think about a random topic, and then share that thought.' },
      on: {
        'agent.thought': { actions: ({ event }) => console.log(event.text), target: 'thought' },
      },
    },
    thought: { type: 'final' },
  },
});

// Support desk: the model classifies the issue, routes to billing or technical, refunds after a
// second, and ends the conversation. Every route moves forward. Cycles: none.
const support = setup({
  types: { context: {} as Ctx, events: {} as Ev, input: {} as string },
  actors: { agent: fromDecision() },
}).createMachine({
  id: 'support',
  initial: 'frontline',
  context: ({ input }) => ({ customerIssue: input }),
  states: {
    frontline: {
      invoke: {
        src: 'agent',
        input: ({ context }: { context: Ctx }) => ({ context, goal: 'Classify the issue' }),
      },
      on: {
        'agent.frontline.classify': [
          {
            actions: log(({ event }) => event),
            guard: ({ event }) => event.category === 'billing',
            target: 'billing',
          },
          {
            actions: log(({ event }) => event),
            guard: ({ event }) => event.category === 'technical',
            target: 'technical',
          },
          { actions: log(({ event }) => event), target: 'conversational' },
        ],
      },
    },
    billing: {
      invoke: { src: 'agent', input: { goal: 'Should the user be refunded?' } },
      on: { 'agent.refund': { actions: log(({ event }) => event), target: 'refund' } },
    },
    technical: {
      invoke: { src: 'agent', input: { context: true, goal: 'Solve the customer issue.' } },
      on: {
        'agent.technical.solve': { actions: log(({ event }) => event), target: 'conversational' },
      },
    },
    conversational: {
      invoke: { src: 'agent', input: { goal: 'End the conversation politely.' } },
      on: { 'agent.endConversation': { actions: log(({ event }) => event), target: 'end' } },
    },
    refund: {
      entry: () => console.log('Refunding...'),
      after: { 1000: { target: 'conversational' } },
    },
    end: { type: 'final' },
  },
});

// Tic-tac-toe played by the model from outside the machine (`agent.interact` sends its moves):
// x and o alternate on valid moves and re-enter themselves on invalid ones; a win or draw (an
// always on playing) ends the game, whose report streams in; `reset` starts over. Every move and
// the reset are events from outside. Cycles: x → o → x, x → x, o → o, and the ones through
// gameOver.winner or gameOver.draw and reset; all gated. Automated: none.
const ticTacToe = setup({
  types: {
    context: {} as {
      board: Array<'x' | 'o' | null>;
      moves: number;
      player: 'x' | 'o';
      gameReport: string;
    },
    events: {} as Ev,
  },
  actors: { agent: fromDecision(), gameReporter: fromTextStream() },
  actions: {
    updateBoard: assign({
      board: ({ context, event }) =>
        context.board.map((cell, i) => (i === event.index ? context.player : cell)),
      moves: ({ context }) => context.moves + 1,
      player: ({ context }) => (context.player === 'x' ? 'o' : 'x'),
    }),
    resetGame: assign({
      board: Array(9).fill(null),
      moves: 0,
      player: 'x' as const,
      gameReport: '',
    }),
    printBoard: ({ context }) => console.log(context.board),
  },
  guards: {
    checkWin: ({ context }) => context.board.some(Boolean),
    checkDraw: ({ context }) => context.moves === 9,
    isValidMove: ({ context, event }) => context.board[event.index] === null,
  },
}).createMachine({
  id: 'ticTacToe',
  initial: 'playing',
  context: { board: Array(9).fill(null), moves: 0, player: 'x', gameReport: '' },
  states: {
    playing: {
      always: [
        { target: 'gameOver.winner', guard: 'checkWin' },
        { target: 'gameOver.draw', guard: 'checkDraw' },
      ],
      initial: 'x',
      states: {
        x: {
          entry: 'printBoard',
          on: {
            'agent.x.play': [
              { target: 'o', guard: 'isValidMove', actions: 'updateBoard' },
              { target: 'x', reenter: true },
            ],
          },
        },
        o: {
          entry: 'printBoard',
          on: {
            'agent.o.play': [
              { target: 'x', guard: 'isValidMove', actions: 'updateBoard' },
              { target: 'o', reenter: true },
            ],
          },
        },
      },
    },
    gameOver: {
      initial: 'winner',
      invoke: {
        src: 'gameReporter',
        input: ({ context }: { context: Ctx }) => ({
          context,
          prompt: 'Provide a short game report.',
        }),
        onSnapshot: {
          actions: assign({
            gameReport: ({ context, event }) => context.gameReport + String(event.snapshot),
          }),
        },
      },
      states: { winner: { tags: 'winner' }, draw: { tags: 'draw' } },
      on: { reset: { target: 'playing', actions: 'resetGame' } },
    },
  },
});

// Todo assistant: a command is read at the terminal (or sent as `assist`), the model turns it into
// addTodo/deleteTodo/toggleTodo/doNothing, which the root handles by going back to idle.
// Cycles: idle → assisting → idle, gated by the terminal read (or `assist`); idle → idle (the
// root's events re-enter idle; only the outside sends them there). Automated: none.
const todoEdit = (key: string) => ({
  actions: assign({ [key]: ({ context }: { context: Ctx }) => context[key], command: null }),
  target: '.idle',
});
const todo = setup({
  types: { context: {} as { todos: unknown[]; command: string | null }, events: {} as Ev },
  actors: { agent: fromDecision(), getFromTerminal: fromTerminal },
}).createMachine({
  id: 'todo',
  context: { command: null, todos: [] },
  on: {
    addTodo: todoEdit('todos') as never,
    deleteTodo: todoEdit('todos') as never,
    toggleTodo: todoEdit('todos') as never,
    doNothing: { target: '.idle' },
  },
  initial: 'idle',
  states: {
    idle: {
      invoke: {
        src: 'getFromTerminal',
        input: '\nEnter a command:',
        onDone: { actions: assign({ command: ({ event }) => event.output }), target: 'assisting' },
      },
      on: {
        assist: { target: 'assisting', actions: assign({ command: ({ event }) => event.command }) },
      },
    },
    assisting: {
      invoke: {
        src: 'agent',
        input: ({ context }: { context: Ctx }) => ({ context, goal: 'Interpret the command' }),
      },
    },
  },
});

// Spanish tutor: the person writes at the terminal, the model gives feedback, then responds; the
// ai state's onDone returns to the person. Cycles: human → ai.teaching → ai.responding → ai.done
// → human, gated by the terminal. Automated: none.
const tutor = setup({
  types: { context: {} as { conversation: string[] }, events: {} as Ev },
  actors: { agent: fromDecision(), getFromTerminal: fromTerminal },
}).createMachine({
  id: 'tutor',
  initial: 'human',
  context: { conversation: [] },
  states: {
    human: {
      invoke: {
        src: 'getFromTerminal',
        input: 'Say something in Spanish:',
        onDone: {
          actions: assign({
            conversation: ({ context, event }) =>
              context.conversation.concat(`User: ${event.output}`),
          }),
          target: 'ai',
        },
      },
    },
    ai: {
      initial: 'teaching',
      states: {
        teaching: {
          invoke: {
            src: 'agent',
            input: () => ({ context: true, goal: 'Give brief feedback', maxTokens: 100 }),
          },
          on: {
            teach: { actions: ({ event }) => console.log(event.instruction), target: 'responding' },
          },
        },
        responding: {
          invoke: { src: 'agent', input: () => ({ context: true, goal: 'Respond in Spanish' }) },
          on: {
            respond: {
              actions: [
                assign({
                  conversation: ({ context, event }) =>
                    context.conversation.concat(`Agent: ${event.response}`),
                }),
                log(({ event }) => event.response),
              ],
              target: 'done',
            },
          },
        },
        done: { type: 'final' },
      },
      onDone: { target: 'human' },
    },
  },
});

// Verifier: a question at the terminal, the model validates it (invalid → ask again), answers it
// and validates the answer (targetless). Cycles: askQuestion → validateQuestion → askQuestion,
// gated by the terminal. Automated: none.
const verify = setup({
  types: { context: {} as Ctx, events: {} as Ev },
  actors: { getFromTerminal: fromTerminal, agent: fromDecision() },
}).createMachine({
  id: 'verify',
  initial: 'askQuestion',
  context: { question: null, answer: null, validation: null },
  states: {
    askQuestion: {
      invoke: {
        src: 'getFromTerminal',
        input: 'Ask a (potentially silly) question',
        onDone: {
          actions: assign({ question: ({ event }) => event.output }),
          target: 'validateQuestion',
        },
      },
    },
    validateQuestion: {
      invoke: {
        src: 'agent',
        input: ({ context }: { context: Ctx }) => ({ goal: `Validate: ${context.question}` }),
      },
      on: {
        'agent.validateQuestion': [
          {
            target: 'askQuestion',
            guard: ({ event }) => !event.isValid,
            actions: log(({ event }) => event.explanation),
          },
          { target: 'answerQuestion' },
        ],
      },
    },
    answerQuestion: {
      invoke: {
        src: 'agent',
        input: ({ context }: { context: Ctx }) => ({ goal: `Answer: ${context.question}` }),
      },
      on: {
        'agent.answerQuestion': {
          actions: assign({ answer: ({ event }) => event.answer }),
          target: 'validateAnswer',
        },
      },
    },
    validateAnswer: {
      invoke: {
        src: 'agent',
        input: ({ context }: { context: Ctx }) => ({
          goal: `Validate the answer: ${context.answer}`,
        }),
      },
      on: {
        'agent.validateAnswer': { actions: assign({ validation: ({ event }) => event.feedback }) },
      },
    },
  },
});

// Weather: a location at the terminal (stopped after three searches, an always on count), the
// model decides to search or ask again, the search runs, the model reports, back to the terminal.
// Cycles: getLocation → decide → getLocation, and getLocation → decide → gettingWeather →
// reportWeather → getLocation; both gated by the terminal. Automated: none.
const weather = setup({
  types: {
    context: {} as { location: string; history: string[]; count: number },
    events: {} as Ev,
  },
  actors: {
    agent: fromDecision(),
    getWeather: fromPromise(async ({ input }: { input: string }) => {
      const response = await fetch('https://api.tavily.com/search', {
        method: 'POST',
        body: input,
      });
      return JSON.stringify(await response.json());
    }),
    getFromTerminal: fromTerminal,
  },
}).createMachine({
  id: 'weather',
  initial: 'getLocation',
  context: { location: '', count: 0, history: [] },
  states: {
    getLocation: {
      invoke: {
        src: 'getFromTerminal',
        input: 'Location?',
        onDone: { actions: assign({ location: ({ event }) => event.output }), target: 'decide' },
      },
      always: { guard: ({ context }) => context.count >= 3, target: 'stopped' },
    },
    decide: {
      entry: log('Deciding...'),
      invoke: {
        src: 'agent',
        input: ({ context }: { context: Ctx }) => ({ context, goal: 'Decide what to do' }),
      },
      on: {
        'agent.getWeather': { actions: log(({ event }) => event), target: 'gettingWeather' },
        'agent.doSomethingElse': 'getLocation',
      },
    },
    gettingWeather: {
      entry: log('Getting weather...'),
      invoke: {
        src: 'getWeather',
        input: ({ context }) => context.location,
        onDone: {
          actions: [
            log(({ event }) => event.output),
            assign({ count: ({ context }) => context.count + 1 }),
          ],
          target: 'reportWeather',
        },
      },
    },
    reportWeather: {
      invoke: { src: 'agent', input: () => ({ goal: 'Report the weather' }) },
      on: { 'agent.reportWeather': { actions: log(({ event }) => event), target: 'getLocation' } },
    },
    stopped: { entry: log('You have used up your search quota. Goodbye!') },
  },
  exit: () => undefined,
});

// Word guesser: the person types a word, the model guesses letters (re-entering guessing on each)
// until more than ten are guessed (an always on their count; not marked) or it guesses the word;
// after the game the model explains, and the person types a new word. Cycles: guessing →
// guessing (reenter on agent.guessLetter): automated; providingWord → guessing → gameOver →
// providingWord and providingWord → guessing → finalGuess → gameOver → providingWord: gated by
// the terminal.
const wordContext = {
  word: null as string | null,
  guessedWord: null as string | null,
  lettersGuessed: [] as string[],
};
const word = setup({
  types: { context: {} as typeof wordContext, events: {} as Ev },
  actors: { agent: fromDecision(), getFromTerminal: fromTerminal },
  actions: { resetContext: assign(wordContext) },
}).createMachine({
  id: 'word',
  initial: 'providingWord',
  context: wordContext,
  states: {
    providingWord: {
      entry: 'resetContext',
      invoke: {
        src: 'getFromTerminal',
        input: 'Enter a word, and an agent will try to guess it.',
        onDone: { actions: assign({ word: ({ event }) => event.output }), target: 'guessing' },
      },
    },
    guessing: {
      always: { guard: ({ context }) => context.lettersGuessed.length > 10, target: 'finalGuess' },
      invoke: {
        src: 'agent',
        input: ({ context }: { context: Ctx }) => ({ context, goal: 'Guess a letter or the word' }),
      },
      on: {
        'agent.guessLetter': {
          actions: [
            assign({
              lettersGuessed: ({ context, event }) => [
                ...context.lettersGuessed,
                event.letter.toUpperCase(),
              ],
            }),
            log(({ event }) => event),
          ],
          target: 'guessing',
          reenter: true,
        },
        'agent.guessWord': {
          actions: [assign({ guessedWord: ({ event }) => event.word }), log(({ event }) => event)],
          target: 'gameOver',
        },
      },
    },
    finalGuess: {
      invoke: {
        src: 'agent',
        input: ({ context }: { context: Ctx }) => ({ context, goal: 'Guess the word.' }),
      },
      on: {
        'agent.guessWord': {
          actions: [assign({ guessedWord: ({ event }) => event.word }), log(({ event }) => event)],
          target: 'gameOver',
        },
      },
    },
    gameOver: {
      invoke: {
        src: 'agent',
        input: ({ context }: { context: Ctx }) => ({ context, goal: 'Why did you win or lose?' }),
      },
      entry: log(({ context }) =>
        context.guessedWord === context.word ? 'The agent won!' : 'The agent lost!',
      ),
      on: {
        'agent.respond': { actions: log(({ event }) => event.response), target: 'providingWord' },
      },
    },
  },
  exit: () => undefined,
});

// Espresso machine, driven from outside by the model (`agent.interact` sends its steps): start,
// grind and heat (timers finish each), tamp and brew (timers), then add water, steam milk and
// combine, add cream or chocolate, restart. Its ingredients state is not parallel and has no
// final child, so its onDone never fires and tamping is never reached from idle. Cycles: drink
// made → heating water → combining espresso and water → drink made (gated by `add water`), and
// drink made → steaming milk → milk steamed → combining espresso and milk → drink made (gated by
// `steam milk` and the combine event). Automated: none.
const addTo = (key: string) =>
  assign({
    contents: ({ context }: { context: { contents: Record<string, number> } }) => ({
      ...context.contents,
      [key]: 1,
    }),
  });
const espresso = createMachine({
  id: 'espresso',
  context: { contents: {} as Record<string, number> },
  states: {
    idle: { entry: assign({ contents: {} }), on: { start: 'preparing ingredients.beans' } },
    'preparing ingredients': {
      states: {
        beans: {
          states: {
            whole: { on: { grind: 'grinding' } },
            grinding: { after: { 1000: 'ground' } },
            ground: { type: 'final' },
          },
          initial: 'whole',
        },
        water: {
          states: {
            start: { on: { heat: 'heating' } },
            heating: { after: { 1000: 'heated' } },
            heated: { type: 'final' },
          },
          initial: 'start',
        },
      },
      initial: 'beans',
      onDone: { target: 'tamping' },
    },
    tamping: { after: { 1000: { target: 'running espresso machine' } } },
    'running espresso machine': {
      after: { 2000: { target: 'drink made', actions: addTo('espresso') } },
    },
    'steaming milk': { after: { 1000: 'milk steamed' } },
    'milk steamed': { on: { 'combine milk and espresso': 'combining espresso and milk' } },
    'combining espresso and milk': {
      after: { 1000: { target: 'drink made', actions: addTo('steamed milk') } },
    },
    'heating water': { after: { 1000: 'combining espresso and water' } },
    'combining espresso and water': {
      after: { 1000: { target: 'drink made', actions: addTo('hot water') } },
    },
    'drink made': {
      on: {
        'add water': 'heating water',
        'steam milk': 'steaming milk',
        'add cream': { actions: addTo('cream') },
        'add chocolate': { actions: addTo('chocolate') },
        restart: 'idle',
      },
    },
  },
  initial: 'idle',
});

const agentApp = (
  name: string,
  file: string,
  machine: CorpusEntry['machine'],
  automated: string[][] = [],
  commit?: string,
): CorpusEntry => ({ name, source: at(file, commit), kind: 'workflow', machine, automated });

export const agentExamples: CorpusEntry[] = [
  agentApp('chatbot (terminal ↔ model)', 'chatbot.ts', chatbot),
  agentApp('chain of thought', 'cot.ts', cot),
  agentApp('email reply that asks for clarification', 'email.ts', email),
  agentApp('two summaries at once', 'example.ts', summaries),
  agentApp('executor: model picks an action', 'executor.ts', executor),
  agentApp('goal setting', 'goal.ts', goal),
  agentApp('joke teller that rates its jokes', 'joke.ts', joke),
  agentApp('debate between two model turns', 'multi.ts', debate, [
    ['multi.positiveResponse', 'multi.negativeResponse'],
  ]),
  agentApp('newspaper with critique and revisions', 'newspaper.ts', newspaper, [
    ['newspaper.revise'],
  ]),
  agentApp('number guesser (model guesses)', 'number.ts', numberGuesser, [['number.guessing']]),
  agentApp('raffle', 'raffle.ts', raffle),
  agentApp('one thought', 'simple.ts', simple),
  agentApp('support desk routing', 'support.ts', support),
  agentApp('tic-tac-toe played from outside by a model', 'ticTacToe.ts', ticTacToe),
  agentApp('todo assistant', 'todo.ts', todo),
  agentApp('Spanish tutor', 'tutor.ts', tutor),
  agentApp('question verifier', 'verify.ts', verify),
  agentApp('weather lookup with a quota', 'weather.ts', weather),
  agentApp('word guesser (model guesses letters)', 'word.ts', word, [['word.guessing']]),
  agentApp(
    'espresso machine driven by a model',
    'espresso.ts',
    espresso,
    [],
    '7e1fca6a8e1d4d7403ae9e8fe56806d2c06ab1cf',
  ),
];
