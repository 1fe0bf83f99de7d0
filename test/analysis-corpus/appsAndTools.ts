// Machines from five more MIT-licensed repositories, collected for issue 30 with the agent
// examples (agentExamples.ts) as a second held-out set: an AI spec-and-codegen CLI, durable
// workflows served by Restate, a WebSocket server and a keyboard-driven physics car, a CAD app's
// video stream, billing, 3D-mouse and AI-copilot machines, and a few small xstate examples not in
// the first corpus. Classified by hand (the comment over each machine lists its cycles and why
// each is or is not automated; `automated` lists the automated ones) and committed before the
// checker ran on them. Transcribed as the other corpus files are; helpers are stubbed.
//
// Licences: brettimus/spectacular cli/LICENSE (MIT), restatedev/xstate LICENSE (MIT),
// helgardferreira/xstate-workshop package.json (MIT), statelyai/xstate LICENSE (MIT),
// KittyCAD/modeling-app LICENSE (MIT).
import {
  type AnyActorRef,
  type AnyEventObject,
  assign,
  createMachine,
  enqueueActions,
  fromEventObservable,
  fromPromise,
  type Subscribable,
  sendTo,
  setup,
} from 'xstate';
import type { CorpusEntry } from './CorpusEntry.js';

type Ev = AnyEventObject;
type Ctx = Record<string, unknown>;
const helper = (..._args: unknown[]): never => undefined as never;
const never: Subscribable<Ev> = { subscribe: () => ({ unsubscribe: () => {} }) };

// --- brettimus/spectacular (cli/src/machines/…) -------------------------------------------------

/** The streaming child's actor: reads the model's text stream and sends each chunk to `input.parent`. */
const consumeStream = fromPromise(
  async ({
    input,
  }: {
    input: { streamResponse: { textStream: AsyncIterable<string> }; parent: AnyActorRef };
  }) => {
    for await (const chunk of input.streamResponse.textStream) input.parent.send(helper(chunk));
    return { success: true, responseMessages: [] };
  },
);

// Consumes a model's text stream: Processing until the stream actor is done (Complete) or fails
// (Failed); each chunk is forwarded to the parent (a targetless transition). Cycles: none.
const aiTextStream = setup({
  types: {
    context: {} as Ctx & { parent: AnyActorRef },
    events: {} as Ev,
    input: {} as { parent: AnyActorRef },
  },
  actions: { appendChunk: assign({ chunks: ({ context }) => context.chunks }) },
  actors: { consumeStream },
}).createMachine({
  id: 'streamProcessor',
  initial: 'Processing',
  context: ({ input }) => ({ chunks: [], error: null, responseMessages: [], parent: input.parent }),
  states: {
    Processing: {
      invoke: {
        id: 'consumeStream',
        src: 'consumeStream',
        input: ({ context, self }) => ({
          streamResponse: context.streamResponse as never,
          parent: self,
        }),
        onError: { target: 'Failed', actions: assign({ error: ({ event }) => event.error }) },
        onDone: {
          target: 'Complete',
          actions: assign({ responseMessages: ({ event }) => event.output }),
        },
      },
      on: {
        'textStream.chunk': {
          actions: [({ event, context }) => context.parent.send(event), { type: 'appendChunk' }],
        },
        'textStream.error': {
          target: 'Failed',
          actions: assign({ error: ({ event }) => event.error }),
        },
      },
    },
    Complete: { type: 'final' },
    Failed: { type: 'final' },
  },
});

// Ideation chat: waits for the person's message, routes it with the model (ask a follow-up or
// write the spec), streams the follow-up question through the child above, saves it and waits
// again; the spec is generated and saved, then done; errors wait for the next message; the person
// may cancel while the model works. Cycles: every one passes AwaitingUserInput or Error, left only
// by the person's user.message.added / user.reply.requested (AwaitingUserInput → Routing →
// InitializingFollowUpQuestion → StreamingFollowUpQuestion → SavingFollowUpQuestion →
// AwaitingUserInput, the cancel shortcuts back, and the ones through Error): gated.
// Automated: none.
const modelCall = fromPromise(async ({ input }: { input: unknown }) => helper(input));
const recordError = { type: 'recordError' as const };
const chat = setup({
  types: { context: {} as Ctx, events: {} as Ev },
  actors: {
    routeRequest: modelCall,
    askNextQuestion: modelCall,
    saveFollowUp: modelCall,
    generateSpec: modelCall,
    saveSpec: modelCall,
    processQuestionStream: aiTextStream,
  },
  guards: {
    shouldAskFollowUp: (_, response: { nextStep: string }) =>
      response.nextStep === 'ask_follow_up_question',
    shouldGenerateSpec: (_, response: { nextStep: string }) =>
      response.nextStep === 'generate_implementation_plan',
  },
  actions: {
    addUserMessage: assign({ messages: ({ context }) => context.messages }),
    replaceMessages: assign({ messages: ({ context }) => context.messages }),
    updateTraceId: assign({ traceId: ({ context }) => context.traceId }),
    clearTraceId: assign({ traceId: () => null }),
    handleStreamChunk: () => {},
    updateAssistantMessages: assign({
      messages: ({ context }) => context.messages,
      streamResponse: null,
    }),
    logEmptyFollowUpMessagesWarning: () => {},
    updateFollowUpQuestionMessages: assign({
      followUpMessages: ({ context }) => context.followUpMessages,
    }),
    clearFollowUpMessages: assign({ followUpMessages: () => null }),
    recordError: assign({
      error: ({ context }) => context.error,
      errorHistory: ({ context }) => context.errorHistory,
    }),
    resetError: assign({ error: () => null }),
  },
}).createMachine({
  id: 'ideation-agent',
  initial: 'AwaitingUserInput',
  context: {
    messages: [],
    traceId: null,
    followUpMessages: null,
    error: null,
    errorHistory: [],
    spec: null,
  },
  states: {
    AwaitingUserInput: {
      on: {
        'user.message.added': { target: 'Routing', actions: [{ type: 'addUserMessage' }] },
        'user.reply.requested': {
          target: 'Routing',
          actions: [{ type: 'replaceMessages' }, { type: 'updateTraceId' }],
        },
      },
    },
    Routing: {
      on: { 'user.cancel': { target: 'AwaitingUserInput' } },
      invoke: {
        id: 'routeRequest',
        src: 'routeRequest',
        input: ({ context }: { context: Ctx }) => context,
        onDone: [
          {
            target: 'InitializingFollowUpQuestion',
            guard: { type: 'shouldAskFollowUp', params: ({ event }) => event.output },
          },
          {
            target: 'GeneratingSpec',
            guard: { type: 'shouldGenerateSpec', params: ({ event }) => event.output },
          },
        ],
        onError: { target: 'Error', actions: recordError },
      },
    },
    InitializingFollowUpQuestion: {
      on: { 'user.cancel': { target: 'AwaitingUserInput' } },
      invoke: {
        id: 'askNextQuestion',
        src: 'askNextQuestion',
        input: ({ context }: { context: Ctx }) => context,
        onDone: {
          target: 'StreamingFollowUpQuestion',
          actions: assign({ streamResponse: ({ event }) => event.output }),
        },
        onError: { target: 'Error', actions: recordError },
      },
    },
    StreamingFollowUpQuestion: {
      on: {
        'user.cancel': { target: 'AwaitingUserInput' },
        'textStream.chunk': { actions: { type: 'handleStreamChunk' } },
      },
      invoke: {
        id: 'processQuestionStream',
        src: 'processQuestionStream',
        input: ({ self }) => ({ parent: self }),
        onDone: {
          target: 'SavingFollowUpQuestion',
          actions: [
            { type: 'updateAssistantMessages' },
            { type: 'updateFollowUpQuestionMessages' },
          ],
        },
        onError: { target: 'Error', actions: recordError },
      },
    },
    SavingFollowUpQuestion: {
      entry: [{ type: 'logEmptyFollowUpMessagesWarning' }],
      invoke: {
        id: 'saveFollowUp',
        src: 'saveFollowUp',
        input: ({ context }: { context: Ctx }) => context,
        onDone: { target: 'AwaitingUserInput', actions: ['clearFollowUpMessages', 'clearTraceId'] },
        onError: { target: 'Error', actions: ['clearFollowUpMessages', recordError] },
      },
    },
    GeneratingSpec: {
      invoke: {
        id: 'generateSpec',
        src: 'generateSpec',
        input: ({ context }: { context: Ctx }) => context,
        onDone: { actions: [assign({ spec: ({ event }) => event.output })], target: 'SavingSpec' },
        onError: { target: 'Error', actions: recordError },
      },
    },
    SavingSpec: {
      invoke: {
        id: 'saveSpec',
        src: 'saveSpec',
        input: ({ context }: { context: Ctx }) => context,
        onDone: { target: 'Done' },
        onError: { target: 'Error', actions: recordError },
      },
    },
    Done: { type: 'final' },
    Error: {
      on: {
        'user.message.added': {
          target: 'Routing',
          actions: [{ type: 'resetError' }, { type: 'addUserMessage' }],
        },
        'user.reply.requested': {
          target: 'Routing',
          actions: [{ type: 'resetError' }, { type: 'replaceMessages' }, { type: 'updateTraceId' }],
        },
      },
    },
  },
});

// API code generation: on generate.api, generate, save, analyse errors, fix, save, done; a failure
// to fix waits for regenerate.api. CheckingTypescript is never entered. Cycles: none (no
// transition leads back to FailedToFix).
const apiCodegen = setup({
  types: { context: {} as Ctx, events: {} as Ev },
  actors: {
    generateApi: modelCall,
    saveApiIndex: modelCall,
    validateTypeScript: fromPromise(async () => [] as Array<{ location?: string }>),
    analyzeApiErrors: modelCall,
    fixApiErrors: modelCall,
  },
}).createMachine({
  id: 'api-codegen',
  initial: 'Idle',
  context: { apiCode: '', errors: [], errorAnalysis: null, fixedApiCode: null },
  states: {
    Idle: {
      on: {
        'generate.api': {
          target: 'GeneratingApi',
          actions: assign({ spec: ({ event }) => event.spec }),
        },
      },
    },
    GeneratingApi: {
      invoke: {
        id: 'generateApi',
        src: 'generateApi',
        input: ({ context }: { context: Ctx }) => context,
        onDone: {
          target: 'SavingApiIndex',
          actions: assign({ apiCode: ({ event }) => event.output }),
        },
        onError: { target: 'Failed' },
      },
    },
    SavingApiIndex: {
      invoke: {
        id: 'saveApiIndex',
        src: 'saveApiIndex',
        input: ({ context }: { context: Ctx }) => context,
        onDone: { target: 'AnalyzingErrors' },
        onError: { target: 'Failed' },
      },
    },
    CheckingTypescript: {
      invoke: {
        id: 'validateTypeScript',
        src: 'validateTypeScript',
        onDone: [
          {
            target: 'FixingErrors',
            guard: ({ event }) => event.output.some((e) => e.location?.includes('index.ts')),
            actions: [assign({ errors: ({ event }) => event.output })],
          },
          { target: 'Success', actions: [assign({ errors: ({ event }) => event.output })] },
        ],
        onError: { target: 'Failed' },
      },
    },
    AnalyzingErrors: {
      invoke: {
        id: 'analyzeApiErrors',
        src: 'analyzeApiErrors',
        input: ({ context }: { context: Ctx }) => context,
        onDone: {
          target: 'FixingErrors',
          actions: assign({ errorAnalysis: ({ event }) => event.output }),
        },
        onError: { target: 'Failed' },
      },
    },
    FixingErrors: {
      invoke: {
        id: 'fixApiErrors',
        src: 'fixApiErrors',
        input: ({ context }: { context: Ctx }) => context,
        onDone: {
          target: 'SavingFixedApiIndex',
          actions: assign({ fixedApiCode: ({ event }) => event.output }),
        },
        onError: { target: 'Failed' },
      },
    },
    SavingFixedApiIndex: {
      invoke: {
        id: 'saveFixedApi',
        src: 'saveApiIndex',
        input: ({ context }: { context: Ctx }) => context,
        onDone: { target: 'Success' },
        onError: { target: 'Failed' },
      },
    },
    FailedToFix: { on: { 'regenerate.api': { target: 'GeneratingApi' } } },
    Success: { type: 'final' },
    Failed: { type: 'final' },
  },
});

// Database schema generation: analyse tables, generate, save, type-check; errors are analysed,
// fixed and saved once, then done. Cycles: none.
const dbSchemaCodegen = setup({
  types: { context: {} as Ctx & { fixAttempts: unknown[] }, events: {} as Ev },
  actors: {
    analyzeTables: modelCall,
    generateSchema: modelCall,
    saveSchema: modelCall,
    validateTypeScript: fromPromise(async () => [] as Array<{ location?: string }>),
    analyzeErrors: modelCall,
    fixSchema: modelCall,
  },
}).createMachine({
  id: 'db-schema-codegen',
  initial: 'Idle',
  context: {
    error: null,
    fixAttempts: [],
    allTypescriptErrors: [],
    schemaSpecification: '',
    dbSchemaTs: '',
  },
  states: {
    Idle: {
      on: {
        'analyze.tables': {
          target: 'AnalyzingTables',
          actions: assign({ spec: ({ event }) => event.spec }),
        },
      },
    },
    AnalyzingTables: {
      invoke: {
        id: 'analyzeTables',
        src: 'analyzeTables',
        input: ({ context }: { context: Ctx }) => context,
        onDone: {
          target: 'GeneratingSchema',
          actions: assign({ schemaSpecification: ({ event }) => event.output }),
        },
        onError: { target: 'Failed', actions: [assign({ error: ({ event }) => event.error })] },
      },
    },
    GeneratingSchema: {
      invoke: {
        id: 'generateSchema',
        src: 'generateSchema',
        input: ({ context }: { context: Ctx }) => context,
        onDone: {
          target: 'SavingSchema',
          actions: assign({ dbSchemaTs: ({ event }) => event.output }),
        },
        onError: { target: 'Failed', actions: [assign({ error: ({ event }) => event.error })] },
      },
    },
    SavingSchema: {
      invoke: {
        id: 'saveSchema',
        src: 'saveSchema',
        input: ({ context }: { context: Ctx }) => context,
        onDone: { target: 'CheckingTypescript' },
        onError: { target: 'Failed' },
      },
    },
    CheckingTypescript: {
      invoke: {
        id: 'validateTypeScript',
        src: 'validateTypeScript',
        onDone: [
          {
            target: 'AnalyzingErrors',
            guard: ({ event }) => event.output.some((e) => e.location?.includes('schema.ts')),
            actions: [
              assign({
                fixAttempts: ({ context, event }) => [...context.fixAttempts, event.output],
              }),
            ],
          },
          {
            target: 'Success',
            actions: [assign({ allTypescriptErrors: ({ event }) => event.output })],
          },
        ],
      },
    },
    AnalyzingErrors: {
      invoke: {
        id: 'analyzeSchemaErrors',
        src: 'analyzeErrors',
        input: ({ context }: { context: Ctx }) => context,
        onDone: {
          target: 'FixingErrors',
          actions: assign({ fixAttempts: ({ context }) => context.fixAttempts }),
        },
        onError: { target: 'Failed' },
      },
    },
    FixingErrors: {
      invoke: {
        id: 'fixSchemaErrors',
        src: 'fixSchema',
        input: ({ context }: { context: Ctx }) => context,
        onDone: {
          target: 'SavingFixedSchema',
          actions: assign({ fixAttempts: ({ context }) => context.fixAttempts }),
        },
        onError: { target: 'Failed' },
      },
    },
    SavingFixedSchema: {
      invoke: {
        id: 'saveFixedSchema',
        src: 'saveSchema',
        input: ({ context }: { context: Ctx }) => context,
        onDone: { target: 'Success' },
        onError: { target: 'Failed' },
      },
    },
    Success: { type: 'final' },
    FailedToFix: { type: 'final' },
    Failed: {
      type: 'final',
      entry: [assign({ error: ({ context }) => context.error ?? 'Failed' })],
    },
  },
});

// Workspace setup: download the template, install dependencies. Cycles: none.
const configureWorkspace = setup({
  types: { context: {} as Ctx },
  actors: { downloadTemplate: modelCall, installDependencies: modelCall },
}).createMachine({
  id: 'configure-workspace',
  initial: 'DownloadingTemplate',
  context: { error: null },
  states: {
    DownloadingTemplate: {
      invoke: {
        id: 'downloadTemplate',
        src: 'downloadTemplate',
        input: () => undefined,
        onDone: { target: 'InstallingDependencies' },
        onError: { target: 'Failed', actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    InstallingDependencies: {
      invoke: {
        id: 'installDependencies',
        src: 'installDependencies',
        input: () => undefined,
        onDone: { target: 'Success' },
        onError: { target: 'Failed', actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    Success: { type: 'final' },
    Failed: {
      type: 'final',
      entry: [assign({ error: ({ context }) => context.error ?? 'failed' })],
    },
  },
});

// --- restatedev/xstate (packages/examples/src/…) -------------------------------------------------

// Auth: the client sends the server child a code on entering authorizing; the server authorises
// (a five-second promise) and sends its parent TOKEN a second later. Cycles: none in either.
const authServer = createMachine(
  {
    id: 'server',
    initial: 'waitingForCode',
    states: {
      waitingForCode: { on: { CODE: { target: 'process' } } },
      process: {
        invoke: {
          id: 'process',
          src: 'authorise',
          onDone: {
            actions: sendTo(
              ({ self }) => self._parent as AnyActorRef,
              { type: 'TOKEN' },
              { delay: 1000 },
            ),
          },
        },
      },
    },
  },
  { actors: { authorise: fromPromise(() => new Promise((resolve) => setTimeout(resolve, 5000))) } },
);
const authClient = createMachine({
  id: 'client',
  initial: 'idle',
  states: {
    idle: { on: { AUTH: { target: 'authorizing' } } },
    authorizing: {
      invoke: { id: 'auth-server', src: authServer },
      entry: sendTo('auth-server', ({ self }) => ({ type: 'CODE', sender: self })),
      on: { TOKEN: { target: 'authorized' } },
    },
    authorized: { type: 'final' },
  },
});

// Payment: wait for approval (ten seconds, then a manual approval), debit, credit, refund on
// failure. Every path moves forward. Cycles: none.
const updateBalance = fromPromise(
  async ({ input }: { input: { userID: string; amount: number } }) => {
    const res = await fetch(`https://httpbin.org/get?user=${input.userID}`);
    return res.json();
  },
);
const payment = setup({
  types: {
    context: {} as Ctx & { senderUserID: string; recipientUserID: string; amount: number },
    events: {} as Ev,
  },
  actions: { requestApproval: () => {}, sendEmail: () => {} },
  actors: { updateBalance },
}).createMachine({
  id: 'Payment',
  context: { senderUserID: '', recipientUserID: '', amount: 0, paymentID: '' },
  initial: 'Awaiting approval',
  states: {
    'Awaiting approval': {
      on: { approved: { target: 'Approved' }, rejected: { target: 'Rejected' } },
      after: { 10000: { target: 'Awaiting manual approval' } },
      entry: { type: 'requestApproval' },
    },
    Approved: {
      invoke: {
        input: ({ context }) => ({ userID: context.senderUserID, amount: context.amount }),
        onDone: { target: 'Debited' },
        onError: { target: 'Cancelled' },
        src: 'updateBalance',
      },
    },
    'Awaiting manual approval': {
      on: { approved: { target: 'Approved' }, rejected: { target: 'Rejected' } },
      entry: { type: 'sendEmail' },
    },
    Rejected: {},
    Cancelled: {},
    Debited: {
      invoke: {
        input: ({ context }) => ({ userID: context.recipientUserID, amount: context.amount }),
        onDone: { target: 'Succeeded' },
        onError: { target: 'Refunding' },
        src: 'updateBalance',
      },
    },
    Succeeded: {},
    Refunding: {
      invoke: {
        input: ({ context }) => ({ userID: context.senderUserID, amount: context.amount }),
        onDone: { target: 'Cancelled' },
        src: 'updateBalance',
      },
    },
  },
});

// A counter served as a durable object (its second version). Cycles: none (no states).
const counter = createMachine({
  id: 'counterv2',
  context: { total: 0 },
  on: {
    increment: { actions: assign({ total: ({ context }) => context.total + 1 }) },
    decrement: { actions: assign({ total: ({ context }) => context.total - 1 }) },
  },
});

// --- helgardferreira/xstate-workshop (apps/…) ----------------------------------------------------

// One WebSocket client on the server: connecting (an always reads the socket's readyState) →
// open → closing → closed; listeners relay messages and pongs; PING checks the pulse and raises
// TERMINATE when none came. Cycles: none.
const socketClient = setup({
  types: {
    context: {} as Ctx & { client: { readyState: number }; parentActor: AnyActorRef },
    events: {} as Ev,
    input: {} as { client: { readyState: number }; parentActor: AnyActorRef },
  },
  actions: {
    close: () => {},
    handleMessage: enqueueActions(({ enqueue: _ }, params: unknown) => {
      if ((params as { message: { type: string } }).message.type === 'UPDATE_SCENE')
        console.log('UPDATE_SCENE message received');
    }),
    ping: enqueueActions(({ context, enqueue }) => {
      if (context.pulse === false) enqueue.raise({ type: 'TERMINATE' });
      else enqueue.assign({ pulse: false });
    }),
    pong: assign({ pulse: true }),
    removeFromParent: sendTo(
      ({ context }) => context.parentActor,
      ({ self }) => ({ type: 'REMOVE_CLIENT', id: self.id }),
    ),
    sendError: () => {},
    sendMessage: () => {},
    terminate: () => {},
  },
  actors: {
    messageListener: fromEventObservable(() => never),
    pongListener: fromEventObservable(() => never),
  },
  guards: {
    isClosed: (_, { readyState }: { readyState: number }) => readyState === 3,
    isClosing: (_, { readyState }: { readyState: number }) => readyState === 2,
    isOpen: (_, { readyState }: { readyState: number }) => readyState === 1,
  },
}).createMachine({
  id: 'socket-client',
  context: ({ input }) => ({ client: input.client, parentActor: input.parentActor, pulse: true }),
  exit: 'removeFromParent',
  invoke: [
    { id: 'messageListener', src: 'messageListener' },
    { id: 'pongListener', src: 'pongListener' },
  ],
  initial: 'connecting',
  states: {
    closed: { type: 'final' },
    closing: {
      on: { CLOSED: { target: 'closed' }, TERMINATE: { actions: 'terminate', target: 'closed' } },
    },
    connecting: {
      on: {
        CLOSE: { actions: { type: 'close' }, target: 'closing' },
        CLOSED: { target: 'closed' },
        OPENED: { target: 'open' },
        TERMINATE: { actions: 'terminate', target: 'closed' },
      },
      always: [
        {
          guard: {
            type: 'isOpen',
            params: ({ context }) => ({ readyState: context.client.readyState }),
          },
          target: 'open',
        },
        {
          guard: {
            type: 'isClosed',
            params: ({ context }) => ({ readyState: context.client.readyState }),
          },
          target: 'closed',
        },
        {
          guard: {
            type: 'isClosing',
            params: ({ context }) => ({ readyState: context.client.readyState }),
          },
          target: 'closing',
        },
      ],
    },
    open: {
      on: {
        CLOSE: { actions: { type: 'close' }, target: 'closing' },
        CLOSED: { target: 'closed' },
        MESSAGE: {
          actions: {
            type: 'handleMessage',
            params: ({ event }: { event: Ev }) => ({ message: event.message }),
          },
        },
        PING: { actions: 'ping' },
        PONG: { actions: 'pong' },
        SEND_ERROR: { actions: { type: 'sendError' } },
        SEND_MESSAGE: { actions: { type: 'sendMessage' } },
        TERMINATE: { actions: 'terminate', target: 'closed' },
      },
    },
  },
});

// The WebSocket server: idle → active (a heartbeat interval and the server's life cycle invoked;
// clients spawned on ADD_CLIENT, pinged on HEARTBEAT, messaged on BROADCAST) → disposed.
// Cycles: none (its spawned clients have none either).
const socketServer = setup({
  types: { context: {} as { clients: AnyActorRef[]; server: unknown }, events: {} as Ev },
  actions: {
    addClient: assign(({ context, self, spawn }) => ({
      clients: context.clients.concat(
        spawn('socketClientActor', { input: { client: { readyState: 0 }, parentActor: self } }),
      ),
    })),
    broadcast: enqueueActions(({ context, enqueue }) => {
      for (const client of context.clients) enqueue.sendTo(client, { type: 'SEND_MESSAGE' });
    }),
    heartbeat: enqueueActions(({ context, enqueue }) => {
      for (const client of context.clients) enqueue.sendTo(client, { type: 'PING' });
    }),
    init: assign(({ event }) => ({ server: event.server })),
    logError: () => {},
    removeClient: enqueueActions(({ context, enqueue }, params: unknown) => {
      const { id } = params as { id: string };
      enqueue.stopChild(id);
      enqueue.assign({ clients: context.clients.filter((client) => client.id !== id) });
    }),
  },
  actors: {
    heartbeatInterval: fromEventObservable(() => never),
    serverLifeCycle: fromEventObservable(() => never),
    socketClientActor: socketClient,
  },
}).createMachine({
  id: 'socket-server',
  context: { clients: [], server: undefined },
  initial: 'idle',
  on: { ERROR: { actions: { type: 'logError' } } },
  states: {
    active: {
      invoke: [
        { id: 'heartbeatInterval', src: 'heartbeatInterval' },
        { id: 'serverLifeCycle', src: 'serverLifeCycle' },
      ],
      on: {
        ADD_CLIENT: { actions: { type: 'addClient' } },
        BROADCAST: { actions: { type: 'broadcast' } },
        DISPOSE: { target: 'disposed' },
        HEARTBEAT: { actions: 'heartbeat' },
        REMOVE_CLIENT: {
          actions: {
            type: 'removeClient',
            params: ({ event }: { event: Ev }) => ({ id: event.id }),
          },
        },
      },
    },
    disposed: { type: 'final' },
    idle: { on: { INIT: { actions: { type: 'init' }, target: 'active' } } },
  },
});

// A physics car driven by the keyboard: two parallel regions (spinning: idle, driving,
// reversing; steering: idle, steeringLeft, steeringRight), moved by events an event observable of
// the pressed keys sends; per-frame observables in each state ease velocity and angle
// (targetless). Cycles: in each region every pair and both triangles (idle ↔ driving, idle ↔
// reversing, driving ↔ reversing, idle → driving → reversing → idle and back; the same for
// steering), all driven by a person's key presses: gated. Automated: none.
const fromPressedKeys = (_keys: string[]) => ({
  pipe: (..._ops: unknown[]) => never,
});
const keyboardInput = fromEventObservable(() => {
  const spinningInput$ = fromPressedKeys(['s', 'w']).pipe((keys: Record<string, boolean>) =>
    keys.s && !keys.w
      ? { type: 'REVERSE' }
      : keys.w && !keys.s
        ? { type: 'THROTTLE' }
        : { type: 'DRIVE_RELEASE' },
  );
  const steeringInput$ = fromPressedKeys(['a', 'd']).pipe((keys: Record<string, boolean>) =>
    keys.a && !keys.d
      ? { type: 'STEER_LEFT' }
      : keys.d && !keys.a
        ? { type: 'STEER_RIGHT' }
        : { type: 'STEER_RELEASE' },
  );
  return helper(spinningInput$, steeringInput$) as Subscribable<Ev>;
});
const fromFrames = () => ({ pipe: (..._ops: unknown[]) => never });
const spinningChange = fromEventObservable(() =>
  fromFrames().pipe(() => ({ type: 'SET_SPINNING_VELOCITY', value: 0 })),
);
const steeringChange = fromEventObservable(() =>
  fromFrames().pipe(() => ({ type: 'SET_STEERING_ANGLE', value: 0 })),
);
const region = (events: Record<string, Record<string, string>>, actor: string) =>
  Object.fromEntries(
    Object.entries(events).map(([state, on]) => [
      state,
      { invoke: { id: `${actor}-${state}`, src: actor }, on },
    ]),
  );
const car = setup({
  types: { context: {} as Ctx, events: {} as Ev },
  actions: {
    setSpinningVelocity: assign({ spinning: ({ context }) => context.spinning }),
    setSteeringAngle: assign({ steering: ({ context }) => context.steering }),
  },
  actors: { keyboardInput, spinningChange, steeringChange },
}).createMachine({
  id: 'car',
  context: { spinning: {}, steering: {} },
  type: 'parallel',
  invoke: { id: 'keyboardInput', src: 'keyboardInput' },
  states: {
    spinning: {
      initial: 'idle',
      on: { SET_SPINNING_VELOCITY: { actions: { type: 'setSpinningVelocity' } } },
      states: region(
        {
          idle: { REVERSE: 'reversing', THROTTLE: 'driving' },
          driving: { DRIVE_RELEASE: 'idle', REVERSE: 'reversing' },
          reversing: { DRIVE_RELEASE: 'idle', THROTTLE: 'driving' },
        },
        'spinningChange',
      ) as never,
    },
    steering: {
      initial: 'idle',
      on: { SET_STEERING_ANGLE: { actions: { type: 'setSteeringAngle' } } },
      states: region(
        {
          idle: { STEER_LEFT: 'steeringLeft', STEER_RIGHT: 'steeringRight' },
          steeringLeft: { STEER_RELEASE: 'idle', STEER_RIGHT: 'steeringRight' },
          steeringRight: { STEER_LEFT: 'steeringLeft', STEER_RELEASE: 'idle' },
        },
        'steeringChange',
      ) as never,
    },
  },
});

// --- statelyai/xstate (examples/…) ----------------------------------------------------------------

// A friend in a list: reading → editing → saving (a one-second save) → reading; CANCEL from any
// state restores the name and goes back to reading. Cycles: reading → editing → saving →
// reading (EDIT, SAVE), editing → reading and saving → reading (CANCEL), reading → reading
// (CANCEL re-enters it): all need a person's event. Automated: none.
const friend = setup({
  types: {
    context: {} as { prevName: string; name: string },
    events: {} as Ev,
    input: {} as { name: string },
  },
  actors: {
    saveUser: fromPromise(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      return true;
    }),
  },
}).createMachine({
  id: 'friend',
  initial: 'reading',
  context: ({ input }) => ({ prevName: input.name, name: input.name }),
  states: {
    reading: { tags: 'read', on: { EDIT: 'editing' } },
    editing: {
      tags: 'form',
      on: {
        SET_NAME: { actions: assign({ name: ({ event }) => event.value }) },
        SAVE: { target: 'saving' },
      },
    },
    saving: {
      tags: ['form', 'saving'],
      invoke: {
        src: 'saveUser',
        onDone: { target: 'reading', actions: assign({ prevName: ({ context }) => context.name }) },
      },
    },
  },
  on: {
    CANCEL: { actions: assign({ name: ({ context }) => context.prevName }), target: '.reading' },
  },
});

// A traffic light served over Express: green → yellow → red → green on TIMER requests.
// Cycles: green → yellow → red → green, each hop an outside request. Automated: none.
const trafficLight = createMachine({
  id: 'counter',
  initial: 'green',
  context: { cycles: 0 },
  states: {
    green: { on: { TIMER: 'yellow' } },
    yellow: { on: { TIMER: 'red' } },
    red: {
      on: {
        TIMER: {
          target: 'green',
          actions: assign({ cycles: ({ context }) => context.cycles + 1 }),
        },
      },
    },
  },
});

// TodoMVC's list: only root handlers that edit context. Cycles: none (no states).
const todos = setup({
  types: { context: {} as { todo: string; todos: unknown[]; filter: string }, events: {} as Ev },
}).createMachine({
  id: 'todos',
  context: { todo: '', todos: [], filter: 'all' },
  on: {
    'newTodo.change': { actions: assign({ todo: ({ event }) => event.value }) },
    'newTodo.commit': {
      guard: ({ event }) => event.value.trim().length > 0,
      actions: assign({ todo: '', todos: ({ context }) => context.todos }),
    },
    'todo.commit': { actions: assign({ todos: ({ context }) => context.todos }) },
    'todo.delete': { actions: assign({ todos: ({ context }) => context.todos }) },
    'filter.change': { actions: assign({ filter: ({ event }) => event.filter }) },
    'todo.mark': { actions: assign({ todos: ({ context }) => context.todos }) },
    'todo.markAll': { actions: assign({ todos: ({ context }) => context.todos }) },
    'todos.clearCompleted': { actions: assign({ todos: ({ context }) => context.todos }) },
  },
});

// Toggle. Cycles: inactive → active → inactive on the person's toggle. Automated: none.
const toggle = createMachine({
  id: 'toggle',
  initial: 'inactive',
  states: { inactive: { on: { toggle: 'active' } }, active: { on: { toggle: 'inactive' } } },
});

// 7GUIs temperature converter: root handlers only. Cycles: none.
const temperature = setup({
  types: { context: {} as { tempC?: unknown; tempF?: unknown }, events: {} as Ev },
}).createMachine({
  id: 'temperature',
  context: { tempC: undefined, tempF: undefined },
  on: {
    CELSIUS: {
      actions: assign({ tempC: ({ event }) => event.value, tempF: ({ event }) => event.value }),
    },
    FAHRENHEIT: {
      actions: assign({ tempC: ({ event }) => event.value, tempF: ({ event }) => event.value }),
    },
  },
});

// --- KittyCAD/modeling-app (src/machines/…) ------------------------------------------------------

// The engine's video stream: off until the app asks to start the engine, on until the stream
// plays, playing, reconfiguring (the engine restarts, then plays again on its own), paused and
// resuming; every move but reconfiguring's completion is an event the app or the engine
// connection sends. Self-targeted events (set-pool, set-media-stream) do not re-enter.
// Cycles: playing → reconfiguring → playing (gated by start-or-reconfigure-engine), playing →
// paused → resuming → playing and paused → resuming → paused (gated by pause, start, play).
// Automated: none.
const engineCall = fromPromise(async ({ input }: { input: unknown }) => helper(input));
const engineStream = setup({
  types: { context: {} as Ctx, events: {} as Ev },
  actors: { play: engineCall, pause: engineCall, 'start-or-reconfigure-engine': engineCall },
}).createMachine({
  id: 'engineStream',
  initial: 'off',
  context: { pool: null, authToken: undefined, mediaStream: null, zoomToFit: true },
  states: {
    off: {
      on: {
        'set-pool': { target: 'off', actions: [assign({ pool: ({ event }) => event.data.pool })] },
        'set-auth-token': {
          target: 'off',
          actions: [assign({ authToken: ({ event }) => event.data.authToken })],
        },
        'start-or-reconfigure-engine': { target: 'on' },
      },
    },
    on: {
      invoke: { src: 'start-or-reconfigure-engine', input: (args: unknown) => args },
      on: {
        'set-media-stream': {
          target: 'on',
          actions: [assign({ mediaStream: ({ event }) => event.mediaStream })],
        },
        play: { target: 'playing', actions: [assign({ zoomToFit: () => true })] },
      },
    },
    playing: {
      invoke: { src: 'play', input: (args: unknown) => args },
      on: {
        'start-or-reconfigure-engine': { target: 'reconfiguring' },
        pause: { target: 'paused' },
      },
    },
    reconfiguring: {
      invoke: {
        src: 'start-or-reconfigure-engine',
        input: (args: unknown) => args,
        onDone: { target: 'playing' },
      },
    },
    paused: {
      invoke: { src: 'pause', input: (args: unknown) => args },
      on: { 'start-or-reconfigure-engine': { target: 'resuming' } },
    },
    resuming: {
      invoke: { src: 'start-or-reconfigure-engine', input: (args: unknown) => args },
      on: {
        pause: { target: 'paused' },
        'set-media-stream': {
          actions: [assign({ mediaStream: ({ event }) => event.mediaStream })],
        },
        play: { target: 'playing', actions: [assign({ zoomToFit: () => false })] },
      },
    },
  },
});

// Billing: waiting until the app asks for an update, updating (three requests), back to waiting
// whether it worked or not. Cycles: waiting → updating → waiting, gated by update. Automated: none.
const billing = setup({
  types: { context: {} as Ctx, events: {} as Ev },
  actors: {
    update: fromPromise(async ({ input }: { input: { context: Ctx; event: Ev } }) => {
      const balance = await fetch(`${input.context.urlUserService}/user/payment/balance`);
      return { credits: await balance.json() };
    }),
  },
}).createMachine({
  id: 'billing',
  initial: 'waiting',
  context: { credits: undefined, allowance: undefined, error: undefined, urlUserService: '' },
  states: {
    waiting: { on: { update: { target: 'updating' } } },
    updating: {
      invoke: {
        src: 'update',
        input: (args) => ({ context: args.context, event: args.event }),
        onDone: [{ target: 'waiting', actions: assign(({ event }) => event.output) }],
        onError: [
          { target: 'waiting', actions: assign({ error: ({ event }) => event.error as Error }) },
        ],
      },
    },
  },
});

// A 3D mouse: wait for connect, connect (a promise that polls the device's proxy), and on failure
// retry at once while retries < maxRetries (an always guard on a counter nobody marks), else
// reset the counter and wait for the next connect. Cycles: failedToConnect → retryConnection →
// failedToConnect (the retry's onError): automated; waitingToConnect → connecting →
// failedToConnect → waitingToConnect: gated by connect.
const connectMouse = fromPromise(async ({ input }: { input: { canvasId: string } }) => {
  const canvas = document.querySelector(`#${input.canvasId}`);
  if (!canvas) throw new Error(`Unable to find canvas with id: ${input.canvasId}`);
  return helper(canvas);
});
const mouse3d = setup({
  types: {
    context: {} as {
      _3dMouse: unknown;
      lastConfigurationForConnection: unknown;
      retries: number;
      maxRetries: number;
    },
    events: {} as Ev,
  },
  actors: { connect: connectMouse },
}).createMachine({
  id: '3dMouse',
  initial: 'waitingToConnect',
  context: () => ({
    _3dMouse: null,
    lastConfigurationForConnection: null,
    retries: 0,
    maxRetries: 3,
  }),
  states: {
    waitingToConnect: {
      on: {
        connect: {
          target: 'connecting',
          actions: [assign({ lastConfigurationForConnection: ({ event }) => event.data })],
        },
      },
    },
    connecting: {
      invoke: {
        id: 'connect',
        src: 'connect',
        input: ({ event }) => ({ canvasId: event.data?.canvasId }),
        onDone: {
          target: 'connected',
          actions: [assign({ _3dMouse: ({ event }) => event.output })],
        },
        onError: { target: 'failedToConnect' },
      },
    },
    connected: { on: {} },
    failedToConnect: {
      always: [
        {
          guard: ({ context }) =>
            context.retries < context.maxRetries && context.lastConfigurationForConnection !== null,
          target: 'retryConnection',
          actions: assign({ retries: ({ context }) => context.retries + 1 }),
        },
        {
          target: 'waitingToConnect',
          actions: [
            assign({ retries: () => 0 }),
            assign({ lastConfigurationForConnection: () => null }),
          ],
        },
      ],
    },
    retryConnection: {
      invoke: {
        id: 'connect',
        src: 'connect',
        input: ({ context }) => context.lastConfigurationForConnection as { canvasId: string },
        onDone: {
          target: 'connected',
          actions: [assign({ _3dMouse: ({ event }) => event.output })],
        },
        onError: { target: 'failedToConnect' },
      },
    },
  },
});

// The AI copilot's conversation manager: await a setup event; setup opens a WebSocket (a promise
// that registers a message listener which sends the machine response-receive and
// conversation-close for the rest of the conversation, through `self.send` handed in as input);
// ready is parallel: responses are appended as they arrive, messages the person sends are sent
// over the socket; when both regions close, back to setup (no conversation found) or await.
// Cycles: response.await → response.response-receive → response.await (gated by server
// responses), request.await → request.message-send → request.await (gated by the person's
// message-send), setup → ready … → setup through conversation-close, and await → setup → ready …
// → await (gated by setup / conversation-close). Automated: none.
const copilotSetup = fromPromise(
  async ({ input }: { input: { event: { refParentSend: (e: Ev) => void } } }) => {
    const ws = helper('/ws/ml/copilot') as {
      addEventListener(type: string, listener: (e: { data: string }) => void): void;
    };
    ws.addEventListener('message', (message) => {
      const response = JSON.parse(message.data);
      if (response.error) {
        input.event.refParentSend({ type: 'conversation-close', problem: 'no-conversation-found' });
        return;
      }
      input.event.refParentSend({ type: 'response-receive', response });
    });
    return { problem: undefined, conversation: { exchanges: [] }, ws };
  },
);
const copilot = setup({
  types: { context: {} as Ctx, events: {} as Ev },
  actions: { toastError: ({ event }) => console.error(event) },
  actors: {
    setup: copilotSetup,
    'message-send': fromPromise(async ({ input }: { input: { context: Ctx } }) => helper(input)),
  },
}).createMachine({
  id: 'mlEphantManager',
  initial: 'await',
  context: { apiToken: '', ws: undefined, conversation: undefined, problem: undefined },
  states: {
    await: { on: { setup: { target: 'setup' } } },
    setup: {
      invoke: {
        input: (args) => ({ event: { refParentSend: args.self.send }, context: args.context }),
        src: 'setup',
        onDone: { target: 'ready', actions: [assign(({ event }) => event.output)] },
        onError: { actions: ['toastError'] },
      },
    },
    ready: {
      type: 'parallel',
      states: {
        response: {
          initial: 'await',
          states: {
            await: {
              on: {
                'conversation-close': { target: 'conversation-close' },
                'response-receive': { target: 'response-receive' },
              },
            },
            'conversation-close': { type: 'final' },
            'response-receive': {
              always: {
                target: 'await',
                actions: [
                  assign(({ context }) => ({
                    lastMessageId: ((context.lastMessageId as number) ?? -1) + 1,
                  })),
                ],
              },
            },
          },
        },
        request: {
          initial: 'await',
          states: {
            await: {
              on: {
                'conversation-close': { target: 'conversation-close' },
                'message-send': { target: 'message-send' },
              },
            },
            'conversation-close': { type: 'final', output: ({ event }) => event.problem },
            'message-send': {
              invoke: {
                input: (args) => ({ context: args.context }),
                src: 'message-send',
                onDone: { target: 'await', actions: [assign(({ event }) => event.output as Ctx)] },
                onError: { target: 'await', actions: ['toastError'] },
              },
            },
          },
          onDone: {
            actions: [
              ({ context }) => helper(context.ws),
              assign(({ event }) => ({ problem: event.output })),
            ],
          },
        },
      },
      onDone: [
        { target: 'setup', guard: ({ context }) => context.problem === 'no-conversation-found' },
        { target: 'await' },
      ],
    },
  },
});

// The app's router bridge: root handlers only. Cycles: none.
const router = setup({ types: { context: {} as Ctx, events: {} as Ev } }).createMachine({
  id: 'router',
  context: { location: null, navigation: null, navigate: null },
  on: {
    'event:navigate': { actions: ({ context, event }) => helper(context.navigate, event.data) },
    'event:set_location': { actions: assign({ location: ({ event }) => event.data }) },
    'event:set_navigation': { actions: assign({ navigation: ({ event }) => event.data }) },
  },
});

const entry = (
  name: string,
  source: string,
  kind: CorpusEntry['kind'],
  machine: CorpusEntry['machine'],
  automated: string[][] = [],
): CorpusEntry => ({ name, source, kind, machine, automated });
const SPEC = (path: string) =>
  `brettimus/spectacular cli/src/machines/${path}@40bf58924ad06b3163ebe4d23664321dfce82746`;
const RESTATE = (path: string) =>
  `restatedev/xstate packages/examples/src/${path}@34d0487662f397edb1363152fa7ad3cb58459ea2`;
const WORKSHOP = (path: string) =>
  `helgardferreira/xstate-workshop apps/${path}@95a275d2e089b81a0cca1eba3f9c84f43a8f739f`;
const XSTATE = (path: string) =>
  `statelyai/xstate examples/${path}@b1811bf77bc2d1a74367328cec7907aa185b70df`;
const KITTY = (path: string, commit: string) =>
  `KittyCAD/modeling-app src/machines/${path}@${commit}`;

export const appsAndTools: CorpusEntry[] = [
  entry('AI ideation chat with a streaming child', SPEC('chat/chat.ts'), 'app', chat),
  entry(
    'AI text stream consumer',
    SPEC('streaming/ai-text-stream-machine.ts'),
    'workflow',
    aiTextStream,
  ),
  entry(
    'AI API code generation',
    SPEC('codegen/api-codegen/api-codegen.ts'),
    'workflow',
    apiCodegen,
  ),
  entry(
    'AI database schema generation',
    SPEC('codegen/db-schema-codegen/db-schema-codegen.ts'),
    'workflow',
    dbSchemaCodegen,
  ),
  entry('workspace setup', SPEC('set-up-workspace/machine.ts'), 'workflow', configureWorkspace),
  entry('durable auth with a server child', RESTATE('auth/app.ts'), 'workflow', authClient),
  entry('durable payment with approval', RESTATE('payment/app.ts'), 'workflow', payment),
  entry('durable counter (versioned)', RESTATE('versioning/app.ts'), 'workflow', counter),
  entry(
    'WebSocket server spawning clients',
    WORKSHOP('scene-workbench/src/common/actors/socket-server/socket-server.machine.ts'),
    'app',
    socketServer,
  ),
  entry(
    'WebSocket server-side client',
    WORKSHOP(
      'scene-workbench/src/common/actors/socket-server/actors/socket-client/socket-client.machine.ts',
    ),
    'app',
    socketClient,
  ),
  entry(
    'keyboard-driven physics car',
    WORKSHOP('prototype/src/playground/rapier/cars/car/actors/car/car.machine.ts'),
    'app',
    car,
  ),
  entry(
    'friend in a list (edit, save)',
    XSTATE('friends-list-react/src/friendMachine.ts'),
    'app',
    friend,
  ),
  entry(
    'traffic light behind an HTTP API',
    XSTATE('express-workflow/machine.ts'),
    'workflow',
    trafficLight,
  ),
  entry('TodoMVC list', XSTATE('todomvc-react/src/todosMachine.ts'), 'app', todos),
  entry('toggle', XSTATE('toggle/src/toggleMachine.ts'), 'app', toggle),
  entry(
    '7GUIs temperature converter',
    XSTATE('7guis-temperature-react/src/temperatureMachine.ts'),
    'app',
    temperature,
  ),
  entry(
    'CAD engine video stream',
    KITTY('engineStreamMachine.ts', '91b5549a06c434dff4b1d3fe62d70b4e8efab7c8'),
    'app',
    engineStream,
  ),
  entry(
    'billing balance refresh',
    KITTY('billingMachine.ts', '462d8bf19bd4158e29768714b208d1cf0c745f31'),
    'app',
    billing,
  ),
  entry(
    '3D mouse connection with retries',
    KITTY('_3dMouse/_3dMouseMachine.ts', '1dfdb87de6b2146eac7c19731bfce1b2a151104f'),
    'app',
    mouse3d,
    [['3dMouse.failedToConnect', '3dMouse.retryConnection']],
  ),
  entry(
    'AI copilot conversation over a WebSocket',
    KITTY('mlEphantManagerMachine2.ts', 'd1f78b7f5f82da488658afaf33e820c186f7c4f3'),
    'app',
    copilot,
  ),
  entry(
    'router bridge',
    KITTY('routerMachine.ts', '7ca51be5bcaf90e8104c5e309d016b81d414ffe8'),
    'app',
    router,
  ),
];
