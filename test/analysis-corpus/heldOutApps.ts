// App machines from other public XState v5 repositories, collected after the reset-gate rule was
// written and classified by hand (the comment over each machine, and its `automated` list) before
// the checker ran on them: a held-out set. Transcribed as the other corpus files are (states,
// transitions, guards, timers, invokes), with two things kept closer to the source, because the
// checker now reads them: guard bodies that read context, and each `assign`'s keys with whether
// it assigns a value or computes one. Helpers the source calls are stubbed.
import {
  assign,
  type EventObject,
  enqueueActions,
  fromCallback,
  fromEventObservable,
  fromPromise,
  not,
  type Subscribable,
  setup,
} from 'xstate';
import { type CorpusEntry, task } from './CorpusEntry.js';

// Stand-ins for the helpers the sources call: opaque to the checker, as the originals are.
const helper = (..._args: unknown[]): never => undefined as never;
const toast = { warning: helper, success: helper, error: helper };
/** rxjs' `timer(ms)` mapped to one event, as a subscribable. */
const timer = (ms: number, event: () => EventObject): Subscribable<EventObject> => ({
  subscribe: (observer) => {
    const id = setTimeout(
      () => (typeof observer === 'function' ? observer : observer.next)?.(event()),
      ms,
    );
    return { unsubscribe: () => clearTimeout(id) };
  },
});
/** rxjs' `animationFrames()` mapped to events, as a subscribable. */
const animationFrames = (event: () => EventObject): Subscribable<EventObject> => timer(16, event);

// Pomodoro. TICK comes from the page's interval, outside the machine: running → checkingFinished →
// running waits for it on every lap. Automated: none.
const pomodoro = setup({
  types: {
    context: {} as { timeLeft: number; duration: number; mode: string; completedPomos: number },
    events: {} as
      | { type: 'START' | 'PAUSE' | 'RESUME' | 'RESET' | 'SKIP' | 'TICK' }
      | { type: 'SET_DURATION'; duration: number }
      | { type: 'SET_MODE'; mode: string; duration: number },
  },
  actions: {
    tick: assign({ timeLeft: ({ context }) => Math.max(0, context.timeLeft - 1) }),
    resetTime: assign({ timeLeft: ({ context }) => context.duration }),
    incrementPomos: assign({
      completedPomos: ({ context }) =>
        context.mode === 'focus' ? context.completedPomos + 1 : context.completedPomos,
    }),
  },
  guards: { isFinished: ({ context }) => context.timeLeft === 0 },
}).createMachine({
  id: 'timer',
  initial: 'idle',
  context: { timeLeft: 1500, duration: 1500, mode: 'focus', completedPomos: 0 },
  states: {
    idle: {
      on: {
        START: 'running',
        SET_DURATION: {
          actions: assign({
            duration: ({ event }) => event.duration,
            timeLeft: ({ event }) => event.duration,
          }),
        },
        SET_MODE: {
          actions: assign({
            mode: ({ event }) => event.mode,
            duration: ({ event }) => event.duration,
            timeLeft: ({ event }) => event.duration,
          }),
        },
      },
    },
    running: {
      on: {
        PAUSE: 'paused',
        TICK: { actions: 'tick', target: 'checkingFinished' },
        RESET: { target: 'idle', actions: 'resetTime' },
        SKIP: 'completed',
      },
    },
    checkingFinished: {
      always: [{ guard: 'isFinished', target: 'completed' }, { target: 'running' }],
    },
    paused: {
      on: { RESUME: 'running', RESET: { target: 'idle', actions: 'resetTime' } },
    },
    completed: {
      entry: 'incrementPomos',
      on: {
        RESET: 'idle',
        SET_MODE: {
          target: 'idle',
          actions: assign({
            mode: ({ event }) => event.mode,
            duration: ({ event }) => event.duration,
            timeLeft: ({ event }) => event.duration,
          }),
        },
      },
    },
  },
});

// Realtime channel connection. The backoff timer re-enters `reconnecting` (reenter: true) and so
// re-arms itself; only maxRetriesExceeded, a counter in context nobody marks, ends it. Every other
// cycle waits for a channel status or the browser going online. Automated: reconnecting itself.
const connection = setup({
  types: {
    context: {} as {
      retryCount: number;
      maxRetries: number;
      channelStatuses: Record<string, string>;
      hasConnectedBefore: boolean;
      browserOnline: boolean;
    },
    events: {} as
      | { type: 'CHANNEL_STATUS'; channelId: string; status: string }
      | { type: 'BROWSER_OFFLINE' | 'BROWSER_ONLINE' | 'RESET_CHANNELS' },
  },
  delays: {
    backoff: ({ context }) => Math.min(1000 * 2 ** context.retryCount, 16000),
  },
  actions: {
    updateChannelStatus: assign({
      channelStatuses: ({ context, event }) =>
        event.type !== 'CHANNEL_STATUS'
          ? context.channelStatuses
          : { ...context.channelStatuses, [event.channelId]: event.status },
    }),
    resetRetryCount: assign({ retryCount: 0 }),
    resetChannelStatuses: assign({ channelStatuses: {} }),
    setBrowserOnline: assign({ browserOnline: true }),
    setBrowserOffline: assign({ browserOnline: false }),
    incrementRetryCount: assign({ retryCount: ({ context }) => context.retryCount + 1 }),
    markConnected: assign({ hasConnectedBefore: true }),
    toastDisconnected: () => toast.warning('Connection lost. Reconnecting...'),
    toastReconnected: () => toast.success('Reconnected'),
    toastOffline: () => toast.error('Offline. Changes may not sync.'),
    triggerReconnect: () => helper(),
  },
  guards: {
    allSubscribed: ({ context, event }) =>
      event.type === 'CHANNEL_STATUS' && helper(context.channelStatuses, event),
    anyDown: ({ context, event }) =>
      event.type === 'CHANNEL_STATUS' && helper(context.channelStatuses, event),
    hasConnectedBefore: ({ context }) => context.hasConnectedBefore,
    isBrowserOnline: ({ context }) => context.browserOnline,
    maxRetriesExceeded: ({ context }) => context.retryCount >= context.maxRetries,
  },
}).createMachine({
  id: 'connection',
  context: {
    retryCount: 0,
    maxRetries: 5,
    channelStatuses: {},
    hasConnectedBefore: false,
    browserOnline: true,
  },
  initial: 'idle',
  states: {
    idle: {
      on: {
        CHANNEL_STATUS: [
          {
            guard: 'allSubscribed',
            target: 'connected',
            actions: ['updateChannelStatus', 'markConnected'],
          },
          { actions: ['updateChannelStatus'] },
        ],
      },
    },
    connected: {
      on: {
        CHANNEL_STATUS: [
          { guard: 'anyDown', target: 'reconnecting', actions: ['updateChannelStatus'] },
          { actions: ['updateChannelStatus'] },
        ],
        BROWSER_OFFLINE: { target: 'reconnecting', actions: ['setBrowserOffline'] },
        RESET_CHANNELS: { target: 'idle', actions: ['resetChannelStatuses', 'resetRetryCount'] },
      },
    },
    reconnecting: {
      entry: enqueueActions(({ context, enqueue }) => {
        if (context.hasConnectedBefore) enqueue('toastDisconnected');
      }),
      after: {
        backoff: [
          { guard: not('isBrowserOnline'), target: 'offline' },
          { guard: 'maxRetriesExceeded', target: 'offline' },
          {
            target: 'reconnecting',
            reenter: true,
            actions: ['incrementRetryCount', 'triggerReconnect'],
          },
        ],
      },
      on: {
        CHANNEL_STATUS: [
          {
            guard: 'allSubscribed',
            target: 'connected',
            actions: [
              'updateChannelStatus',
              'resetRetryCount',
              'markConnected',
              'toastReconnected',
            ],
          },
          { actions: ['updateChannelStatus'] },
        ],
        BROWSER_ONLINE: {
          target: 'reconnecting',
          reenter: true,
          actions: ['setBrowserOnline', 'resetRetryCount'],
        },
        RESET_CHANNELS: { target: 'idle', actions: ['resetChannelStatuses', 'resetRetryCount'] },
      },
    },
    offline: {
      entry: ['toastOffline'],
      on: {
        BROWSER_ONLINE: {
          target: 'reconnecting',
          actions: ['setBrowserOnline', 'resetRetryCount'],
        },
      },
    },
  },
});

// Interval training timer. TICK comes from the page; each set needs SUBMIT_REPS or SKIP_REP_INPUT
// from the person. Automated: none.
type Workout = {
  exercise: string | null;
  workDuration: number;
  restDuration: number;
  totalSets: number;
  currentSet: number;
  timeRemaining: number;
  repsPerSet: number[];
  pausedFrom: string | null;
};
const initialWorkout: Workout = {
  exercise: null,
  workDuration: 30,
  restDuration: 15,
  totalSets: 3,
  currentSet: 0,
  timeRemaining: 0,
  repsPerSet: [],
  pausedFrom: null,
};
const countingDown = (next: object) => [
  {
    guard: ({ context }: { context: Workout }) => context.timeRemaining > 1,
    actions: assign({
      timeRemaining: ({ context }: { context: Workout }) => context.timeRemaining - 1,
    }),
  },
  next,
];
const pausing = (from: string) =>
  ({ target: 'paused', actions: assign({ pausedFrom: from }) }) as never;
const stopping = { target: 'idle', actions: assign(initialWorkout) } as never;
const afterSet = (reps: (event: { type: string; reps?: number }) => number) => [
  {
    guard: ({ context }: { context: Workout }) => context.currentSet < context.totalSets,
    target: 'resting',
    actions: assign({
      repsPerSet: ({
        context,
        event,
      }: {
        context: Workout;
        event: { type: string; reps?: number };
      }) => [...context.repsPerSet, reps(event)],
      timeRemaining: ({ context }: { context: Workout }) => context.restDuration,
    }),
  },
  {
    target: 'completed',
    actions: assign({
      repsPerSet: ({
        context,
        event,
      }: {
        context: Workout;
        event: { type: string; reps?: number };
      }) => [...context.repsPerSet, reps(event)],
    }),
  },
];
const intervalTimer = setup({ types: { context: {} as Workout } }).createMachine({
  id: 'timer',
  initial: 'idle',
  context: initialWorkout,
  states: {
    idle: {
      on: {
        CONFIGURE: {
          actions: assign({
            exercise: ({ event }) => event.exercise,
            workDuration: ({ event }) => event.workDuration,
            restDuration: ({ event }) => event.restDuration,
            totalSets: ({ event }) => event.sets,
            currentSet: 0,
            repsPerSet: [],
            pausedFrom: null,
          }),
        },
        START: {
          target: 'getReady',
          guard: ({ context }) => context.exercise !== null,
          actions: assign({ timeRemaining: 3, currentSet: 1, repsPerSet: [] }),
        },
      },
    },
    getReady: {
      on: {
        TICK: countingDown({
          target: 'working',
          actions: assign({
            timeRemaining: ({ context }: { context: Workout }) => context.workDuration,
          }),
        }) as never,
        PAUSE: pausing('getReady'),
        STOP: stopping,
      },
    },
    working: {
      on: {
        TICK: countingDown({ target: 'repInput' }) as never,
        PAUSE: pausing('working'),
        STOP: stopping,
      },
    },
    repInput: {
      on: {
        SUBMIT_REPS: afterSet((event) => event.reps ?? 0) as never,
        SKIP_REP_INPUT: afterSet(() => 0) as never,
        STOP: stopping,
      },
    },
    resting: {
      on: {
        TICK: countingDown({
          target: 'working',
          actions: assign({
            currentSet: ({ context }: { context: Workout }) => context.currentSet + 1,
            timeRemaining: ({ context }: { context: Workout }) => context.workDuration,
          }),
        }) as never,
        PAUSE: pausing('resting'),
        STOP: stopping,
      },
    },
    paused: {
      on: {
        RESUME: ['getReady', 'working', 'resting'].map((from) => ({
          guard: ({ context }: { context: Workout }) => context.pausedFrom === from,
          target: from,
          actions: assign({ pausedFrom: null }),
        })) as never,
        STOP: stopping,
      },
    },
    completed: {
      on: {
        STOP: stopping,
        START: {
          target: 'getReady',
          actions: assign({ timeRemaining: 3, currentSet: 1, repsPerSet: [] }),
        },
      },
    },
  },
});

// A CAD app's sign-in. Logging out and back in are a person's acts. Automated: none.
const cadAuth = setup({
  types: { context: {} as { user?: object; token: string } },
  actors: { getUser: task, logout: task, logoutAllEnvironments: task },
}).createMachine({
  id: 'auth',
  initial: 'checkIfLoggedIn',
  context: { token: '' },
  states: {
    checkIfLoggedIn: {
      id: 'check-if-logged-in',
      invoke: {
        src: 'getUser',
        id: 'check-logged-in',
        onDone: [
          {
            target: 'loggedIn',
            actions: assign(({ context }) => ({ user: {}, token: context.token })),
          },
        ],
        onError: [{ target: 'loggedOut', actions: assign({ user: () => undefined }) }],
      },
    },
    loggedIn: {
      on: {
        'Log out': { target: 'loggingOut' },
        'Log out all': { target: 'loggingOutAllEnvironments' },
      },
    },
    loggingOut: {
      invoke: {
        src: 'logout',
        onDone: 'loggedOut',
        onError: { target: 'loggedIn', actions: [() => helper('Error while logging out')] },
      },
    },
    loggingOutAllEnvironments: {
      invoke: {
        src: 'logoutAllEnvironments',
        onDone: 'loggedOut',
        onError: { target: 'loggedIn', actions: [() => helper('Error while logging out')] },
      },
    },
    loggedOut: {
      on: {
        'Log in': {
          target: 'checkIfLoggedIn',
          actions: assign({ token: ({ event }) => (event as { token?: string }).token ?? '' }),
        },
      },
    },
  },
});

// A block puzzle. Each placement needs a drag and a drop; the targetless `always` that refills
// an empty inventory fires once (the refill fills it). Automated: none.
type Blocks = {
  grid: unknown[];
  inventory: (object | null)[];
  score: number;
  highScore: number;
  combo: number;
  currentDrag: { blockIndex: number } | null;
  linesToClear: { totalLines: number } | null;
};
const blockBlast = setup({
  types: { context: {} as Blocks },
  guards: {
    isValidPlacement: ({ context, event }) =>
      event.type === 'DROP_BLOCK' && context.currentDrag !== null && helper(context.grid, event),
    hasLinesToClear: ({ context }) =>
      context.linesToClear !== null && context.linesToClear.totalLines > 0,
    canContinue: ({ context }) => helper(context.grid, context.inventory),
    isInventoryEmpty: ({ context }) => context.inventory.every((block) => block === null),
  },
  actions: {
    startDrag: assign({ currentDrag: ({ event }) => helper(event) }),
    updateDrag: assign({ currentDrag: ({ context, event }) => helper(context, event) }),
    cancelDrag: assign({ currentDrag: () => null }),
    placeBlockOnGrid: assign(({ context, event }) => helper(context, event)),
    clearLinesFromGrid: assign(({ context }) => helper(context)),
    resetCombo: assign({ combo: () => 0, linesToClear: () => null }),
    refillInventory: assign(({ context }) => ({ inventory: [helper(context.score)] })),
    updateHighScore: assign(({ context }) => helper(context)),
    loadHighScore: assign(({ event }) => helper(event)),
    resetGame: assign(({ context }) => helper(context.highScore)),
  },
}).createMachine({
  id: 'game',
  initial: 'idle',
  context: {
    grid: [],
    inventory: [{}, {}, {}],
    score: 0,
    highScore: 0,
    combo: 0,
    currentDrag: null,
    linesToClear: null,
  },
  states: {
    idle: {
      always: [{ guard: 'isInventoryEmpty', actions: 'refillInventory' }],
      on: {
        DRAG_START: { target: 'dragging', actions: 'startDrag' },
        LOAD_HIGH_SCORE: { actions: 'loadHighScore' },
        RESTART: { target: 'idle', actions: 'resetGame', reenter: true },
      },
    },
    dragging: {
      on: {
        DRAG_UPDATE: { actions: 'updateDrag' },
        DRAG_CANCEL: { target: 'idle', actions: 'cancelDrag' },
        DROP_BLOCK: [
          { guard: 'isValidPlacement', target: 'placing', actions: 'placeBlockOnGrid' },
          { target: 'idle', actions: 'cancelDrag' },
        ],
      },
    },
    placing: {
      always: [
        { guard: 'hasLinesToClear', target: 'clearing' },
        { target: 'checkingGameOver', actions: 'resetCombo' },
      ],
    },
    clearing: {
      on: { CLEAR_COMPLETE: { target: 'checkingGameOver', actions: 'clearLinesFromGrid' } },
    },
    checkingGameOver: {
      always: [
        { guard: 'isInventoryEmpty', actions: 'refillInventory' },
        { guard: 'canContinue', target: 'idle' },
        { target: 'gameOver', actions: 'updateHighScore' },
      ],
    },
    gameOver: { on: { RESTART: { target: 'idle', actions: 'resetGame' } } },
  },
});

// A drawing game over a realtime database. Each round needs START_DRAWING, END_DRAWING and
// SELECT_WINNER from the players; database syncs arrive as events from outside. Automated: none.
type Round = { playedRounds: number; pastTopics: string[] };
const pictionary = setup({
  types: {
    context: {} as {
      gameState: Round;
      players: object[];
      topics: object[];
      playerIdToDelete?: string;
      currentPlayer?: object;
      loadingState: string;
    },
  },
  actors: {
    loadInitialData: fromPromise(async () => ({ gameState: {}, players: [], topics: [] })),
    addPlayer: task,
    deletePlayer: task,
    syncPlayer: task,
    syncGameState: task,
    updateGameState: task,
  },
  actions: {
    startGame: assign({ gameState: ({ context }) => helper(context) }),
    handleEndDrawing: assign({ gameState: ({ context, event }) => helper(context, event) }),
    setTimer: assign({ gameState: ({ context, event }) => helper(context, event) }),
    clearCanvas: () => {},
    handleWinnerSelection: assign({ gameState: ({ context, event }) => helper(context, event) }),
    prepareNextRound: assign({ gameState: ({ context }) => helper(context) }),
    resetGame: assign(({ context }) => helper(context)),
  },
}).createMachine({
  id: 'game',
  initial: 'loading',
  context: {
    gameState: { playedRounds: 0, pastTopics: [] },
    players: [],
    topics: [],
    loadingState: 'loadingData',
  },
  on: { SYNC_PLAYER: '.syncPlayer', SYNC_GAME_STATE: '.syncGameState' },
  states: {
    loading: {
      invoke: {
        src: 'loadInitialData',
        onDone: {
          target: 'addingPlayer',
          actions: assign({
            gameState: ({ event }) => event.output.gameState as Round,
            players: ({ event }) => event.output.players,
            topics: ({ event }) => event.output.topics,
            loadingState: 'idle',
          }),
        },
      },
    },
    addingPlayer: { on: { ADD_PLAYER: { target: 'addPlayer' } } },
    addPlayer: {
      invoke: {
        src: 'addPlayer',
        onDone: {
          target: 'idle',
          actions: assign({ currentPlayer: ({ event }) => event.output as object }),
        },
      },
    },
    syncPlayer: {
      invoke: {
        src: 'syncPlayer',
        onDone: { actions: assign({ players: ({ context, event }) => helper(context, event) }) },
      },
    },
    syncGameState: {
      invoke: {
        src: 'syncGameState',
        onDone: { actions: assign({ gameState: ({ context, event }) => helper(context, event) }) },
      },
    },
    idle: {
      on: {
        DELETE_PLAYER: {
          target: 'deletingPlayer',
          actions: assign({
            playerIdToDelete: ({ event }) => (event as { id?: string }).id,
            loadingState: 'deletingPlayer',
          }),
        },
        START_GAME: {
          target: 'showTopic',
          guard: ({ context }) => context.players.length >= 2,
          actions: 'startGame',
        },
        SET_TIMER: { actions: 'setTimer' },
      },
    },
    deletingPlayer: {
      invoke: {
        src: 'deletePlayer',
        onDone: {
          target: 'idle',
          actions: assign({ playerIdToDelete: undefined, loadingState: 'idle' }),
        },
      },
    },
    showTopic: { on: { START_DRAWING: { target: 'drawing', actions: 'clearCanvas' } } },
    drawing: { on: { END_DRAWING: { target: 'waitingForWinner', actions: 'handleEndDrawing' } } },
    waitingForWinner: {
      on: { SELECT_WINNER: { target: 'checkGameStatus', actions: 'handleWinnerSelection' } },
    },
    checkGameStatus: {
      always: [
        {
          target: 'over',
          guard: ({ context }) => context.gameState.playedRounds >= context.players.length,
        },
        { target: 'showTopic', actions: 'prepareNextRound' },
      ],
    },
    over: { on: { NEW_GAME: { target: 'idle', actions: 'resetGame' } } },
  },
});

// A party game. A tied vote goes back to voting, a round back to discussion, but each needs
// FINISH_VOTING or START_VOTING from the players. Automated: none.
const undercover = setup({
  types: {
    context: {} as {
      players: object[];
      alivePlayers: string[];
      votes: Record<string, string>;
      eliminatedPlayer: string | null;
      voteResolution: string;
      mrWhiteGuessResult: boolean | null;
      winner?: string | null;
    },
  },
  guards: {
    hasEnoughPlayers: ({ context }) =>
      Array.isArray(context.players) && context.players.length >= 3 && context.players.length <= 20,
    allVotesCast: ({ context }) => helper(context),
    isTied: ({ context }) => context.voteResolution === 'tie',
    isSecondTie: ({ context }) => context.voteResolution === 'secondTie',
    isMrWhiteEliminated: ({ context }) => helper(context.eliminatedPlayer, context.players),
    gameOver: ({ context }) => helper(context.players),
    mrWhiteGuessCorrect: ({ context }) => context.mrWhiteGuessResult === true,
    allMrWhiteVotesCast: ({ context }) => helper(context.alivePlayers, context.votes),
  },
  actions: {
    assignPlayers: assign(({ context, event }) => helper(context, event)),
    assignRoles: assign(({ context }) => helper(context)),
    assignWordPair: assign(({ context }) => helper(context)),
    recordVote: assign(({ context, event }) => helper(context, event)),
    computeElimination: assign(({ context }) => helper(context)),
    eliminatePlayer: assign(({ context }) => helper(context)),
    resetVotes: assign({ votes: () => ({}) }),
    setWinner: assign(({ context }) => ({ winner: helper(context) })),
    recordMrWhiteGuess: assign(({ event }) => helper(event)),
    recordMrWhiteVote: assign(({ context, event }) => helper(context, event)),
    resolveMrWhiteGuessVote: assign(({ context }) => ({ mrWhiteGuessResult: helper(context) })),
    setCategory: assign(({ event }) => helper(event)),
    setTimerDuration: assign(({ event }) => helper(event)),
    advanceSpeaker: assign(({ context }) => helper(context)),
    prepareNextRound: assign(({ context }) => helper(context)),
    resetGame: assign(() => helper()),
  },
}).createMachine({
  id: 'undercoverGame',
  initial: 'menu',
  context: {
    players: [],
    alivePlayers: [],
    votes: {},
    eliminatedPlayer: null,
    voteResolution: 'pending',
    mrWhiteGuessResult: null,
  },
  states: {
    menu: { on: { START_GAME: { target: 'lobby', actions: 'assignPlayers' } } },
    lobby: {
      on: {
        UPDATE_PLAYERS: { actions: 'assignPlayers' },
        SET_CATEGORY: { actions: 'setCategory' },
        SET_TIMER_DURATION: { actions: 'setTimerDuration' },
        START_ROLE_DISTRIBUTION: {
          guard: 'hasEnoughPlayers',
          target: 'roleDistribution',
          actions: ['assignRoles', 'assignWordPair', 'resetVotes'],
        },
        RESET_GAME: { target: 'menu', actions: 'resetGame' },
      },
    },
    roleDistribution: {
      on: {
        START_ROUND: { target: 'gameRound.discussion', actions: 'resetVotes' },
        RESET_GAME: { target: 'menu', actions: 'resetGame' },
      },
    },
    gameRound: {
      initial: 'discussion',
      states: {
        discussion: {
          on: {
            NEXT_SPEAKER: { actions: 'advanceSpeaker' },
            START_VOTING: { target: 'voting', actions: 'resetVotes' },
          },
        },
        voting: {
          on: {
            CAST_VOTE: { actions: 'recordVote' },
            FINISH_VOTING: { guard: 'allVotesCast', target: '#undercoverGame.vote' },
          },
        },
      },
      on: { RESET_GAME: { target: '#undercoverGame.menu', actions: 'resetGame' } },
    },
    vote: {
      entry: 'computeElimination',
      always: [
        { guard: 'isTied', target: '#undercoverGame.gameRound.voting', actions: 'resetVotes' },
        { guard: 'isSecondTie', target: 'elimination' },
        { target: 'elimination' },
      ],
      on: { RESET_GAME: { target: 'menu', actions: 'resetGame' } },
    },
    elimination: {
      entry: 'eliminatePlayer',
      always: [
        { guard: 'isMrWhiteEliminated', target: 'mrWhiteGuess' },
        { target: 'checkGameEnd' },
      ],
      on: { RESET_GAME: { target: 'menu', actions: 'resetGame' } },
    },
    mrWhiteGuess: {
      entry: 'resetVotes',
      on: {
        SUBMIT_MRWHITE_GUESS: { target: 'mrWhiteVote', actions: 'recordMrWhiteGuess' },
        RESET_GAME: { target: 'menu', actions: 'resetGame' },
      },
    },
    mrWhiteVote: {
      on: {
        CAST_MRWHITE_VOTE: { actions: 'recordMrWhiteVote' },
        RESOLVE_MRWHITE_VOTE: {
          guard: 'allMrWhiteVotesCast',
          target: 'checkGameEnd',
          actions: 'resolveMrWhiteGuessVote',
        },
        RESET_GAME: { target: 'menu', actions: 'resetGame' },
      },
    },
    checkGameEnd: {
      always: [
        { guard: 'mrWhiteGuessCorrect', target: 'victory', actions: 'setWinner' },
        { guard: 'gameOver', target: 'victory', actions: 'setWinner' },
        { target: 'gameRound.discussion', actions: 'prepareNextRound' },
      ],
      on: { RESET_GAME: { target: 'menu', actions: 'resetGame' } },
    },
    victory: { on: { RESET_GAME: { target: 'menu', actions: 'resetGame' } } },
  },
});

// Lottie players kept in sync. Seeking returns to playing or paused after 100 ms, but reaching it
// again needs SEEK; loading needs LOAD_FILE. Automated: none.
type Lottie = {
  players: { status: string }[];
  playbackState: string;
  loop: boolean;
  currentFrame: number;
  currentTime: number;
};
const initialLottie: Lottie = {
  players: [],
  playbackState: 'idle',
  loop: false,
  currentFrame: 0,
  currentTime: 0,
};
const lottieSync = setup({
  types: { context: {} as Lottie },
  actors: { loadAnimation: task, initializeAllPlayers: task },
  actions: {
    setAnimationData: assign({
      currentFrame: 0,
      currentTime: 0,
      players: ({ context }) => context.players,
    }),
    addPlayer: assign({ players: ({ context, event }) => [...context.players, helper(event)] }),
    removePlayer: assign({ players: ({ context, event }) => helper(context.players, event) }),
    markPlayerReady: assign({ players: ({ context, event }) => helper(context.players, event) }),
    markPlayerError: assign({ players: ({ context, event }) => helper(context.players, event) }),
    setPlayersInitialized: assign({ players: ({ event }) => helper(event) }),
    startPlayback: assign({ playbackState: 'playing' }),
    pausePlayback: assign({ playbackState: 'paused' }),
    stopPlayback: assign({ playbackState: 'stopped', currentFrame: 0, currentTime: 0 }),
    resumePlayback: assign({ playbackState: 'playing' }),
    resetPlayback: assign({ playbackState: 'stopped', currentFrame: 0, currentTime: 0 }),
    seekToFrame: assign({
      currentFrame: ({ event }) => helper(event),
      currentTime: ({ event, context }) => helper(event, context),
      playbackState: 'seeking',
    }),
    setSpeed: assign({}),
    setZoom: assign({}),
    toggleLoop: assign({ loop: ({ context }) => !context.loop }),
    setSyncMode: assign({}),
    updateFrameFromPlayer: assign({
      currentFrame: ({ event, context }) => helper(event, context),
      currentTime: ({ event, context }) => helper(event, context),
    }),
    syncAllPlayers: ({ context }) => helper(context),
    setError: assign({}),
    clearError: assign({}),
    cleanupCurrentFile: ({ context }) => helper(context),
    handleAnimationComplete: assign({ playbackState: 'stopped', currentFrame: 0, currentTime: 0 }),
    handleLoopComplete: () => {},
    resetMachine: assign(() => initialLottie),
  },
  guards: {
    hasPlayers: ({ context }) => context.players.length > 0,
    wasPlaying: ({ context }) => context.playbackState === 'playing',
    allPlayersReady: ({ context }) =>
      context.players.length > 0 && context.players.every((player) => player.status === 'ready'),
    shouldStopOnComplete: ({ context }) => !context.loop,
  },
}).createMachine({
  id: 'syncMachine',
  context: initialLottie,
  initial: 'idle',
  states: {
    idle: {
      on: {
        LOAD_FILE: { target: 'loadingFile' },
        INIT_PLAYER: { actions: 'addPlayer' },
        RESET: { actions: 'resetMachine' },
      },
    },
    loadingFile: {
      invoke: {
        id: 'loadAnimation',
        src: 'loadAnimation',
        onDone: { target: 'fileLoaded', actions: 'setAnimationData' },
        onError: { target: 'error', actions: 'setError' },
      },
    },
    fileLoaded: {
      always: [{ target: 'initializingPlayers', guard: 'hasPlayers' }, { target: 'ready' }],
      on: { INIT_PLAYER: { target: 'initializingPlayers', actions: 'addPlayer' } },
    },
    initializingPlayers: {
      invoke: {
        id: 'initializePlayers',
        src: 'initializeAllPlayers',
        onDone: { actions: 'setPlayersInitialized' },
        onError: { target: 'error', actions: 'setError' },
      },
      always: [{ target: 'ready', guard: 'allPlayersReady' }],
      on: {
        PLAYER_READY: { actions: 'markPlayerReady' },
        PLAYER_ERROR: { actions: 'markPlayerError' },
      },
    },
    ready: {
      initial: 'stopped',
      states: {
        stopped: {
          entry: 'resetPlayback',
          on: { PLAY: { target: 'playing', actions: 'startPlayback' } },
        },
        playing: {
          entry: 'syncAllPlayers',
          on: {
            PAUSE: { target: 'paused', actions: 'pausePlayback' },
            STOP: { target: 'stopped', actions: 'stopPlayback' },
            SEEK: { target: 'seeking', actions: 'seekToFrame' },
            ANIMATION_COMPLETE: [
              {
                target: 'stopped',
                guard: 'shouldStopOnComplete',
                actions: 'handleAnimationComplete',
              },
              { actions: 'handleLoopComplete' },
            ],
          },
        },
        paused: {
          on: {
            PLAY: { target: 'playing', actions: 'resumePlayback' },
            STOP: { target: 'stopped', actions: 'stopPlayback' },
            SEEK: { target: 'seeking', actions: 'seekToFrame' },
          },
        },
        seeking: {
          entry: 'syncAllPlayers',
          after: { 100: [{ target: 'playing', guard: 'wasPlaying' }, { target: 'paused' }] },
          on: { SEEK: { actions: 'seekToFrame' } },
        },
      },
      on: {
        LOAD_FILE: { target: 'loadingFile', actions: 'cleanupCurrentFile' },
        INIT_PLAYER: { actions: 'addPlayer' },
        REMOVE_PLAYER: { actions: 'removePlayer' },
        PLAYER_READY: { actions: 'markPlayerReady' },
        PLAYER_ERROR: { actions: 'markPlayerError' },
        SET_SPEED: { actions: ['setSpeed', 'syncAllPlayers'] },
        SET_ZOOM: { actions: 'setZoom' },
        TOGGLE_LOOP: { actions: ['toggleLoop', 'syncAllPlayers'] },
        SET_SYNC_MODE: { actions: 'setSyncMode' },
        FRAME_UPDATE: { actions: 'updateFrameFromPlayer' },
        ANIMATION_COMPLETE: [
          { guard: 'shouldStopOnComplete', actions: 'handleAnimationComplete' },
          { actions: 'handleLoopComplete' },
        ],
      },
    },
    error: {
      on: {
        CLEAR_ERROR: { target: 'idle', actions: 'clearError' },
        RESET: { target: 'idle', actions: ['clearError', 'resetMachine'] },
        LOAD_FILE: { target: 'loadingFile', actions: 'clearError' },
      },
    },
  },
});

// Workout sync, with the worker the app provides (syncMachine.ts): a sync starts on SYNC, from the
// person or the app's scheduler, outside the machine. Automated: none.
type SyncProgress = {
  progress: { fetched: number; total: number } | null;
  newCount: number;
  error: string | null;
};
const workoutSync = setup({
  types: { context: {} as SyncProgress },
  actors: {
    syncWorker: fromCallback(({ sendBack }) => {
      const send = (failed: boolean) => {
        sendBack({ type: 'PROGRESS', fetched: 0, total: 0 });
        if (failed) sendBack({ type: 'AUTH_ERROR' });
        sendBack({ type: 'COMPLETE', newCount: 0 });
        sendBack({ type: 'SYNC_ERROR', message: '' });
      };
      helper(send);
      return () => {};
    }),
  },
  actions: {
    resetContext: assign({ progress: null, newCount: 0, error: null }),
    clearForSync: assign({ progress: null, error: null }),
    setProgress: assign({ progress: ({ event }) => helper(event) }),
    setComplete: assign({ newCount: ({ event }) => helper(event), progress: null }),
    setAuthError: assign({ error: 'Authentication failed' }),
    setSyncError: assign({ error: ({ event }) => helper(event) }),
  },
}).createMachine({
  id: 'sync',
  initial: 'idle',
  context: { progress: null, newCount: 0, error: null },
  on: { RESET: { target: '.idle', actions: 'resetContext' } },
  states: {
    idle: { on: { SYNC: { target: 'syncing', actions: 'clearForSync' } } },
    syncing: {
      invoke: { src: 'syncWorker' },
      on: {
        PROGRESS: { actions: 'setProgress' },
        COMPLETE: { target: 'done', actions: 'setComplete' },
        AUTH_ERROR: { target: 'error', actions: 'setAuthError' },
        SYNC_ERROR: { target: 'error', actions: 'setSyncError' },
      },
    },
    done: {
      on: {
        SYNC: { target: 'syncing', actions: 'clearForSync' },
        RESET: { target: 'idle', actions: 'resetContext' },
      },
    },
    error: {
      on: {
        SYNC: { target: 'syncing', actions: 'clearForSync' },
        RESET: { target: 'idle', actions: 'resetContext' },
      },
    },
  },
});

// Workout enrichment backfill. The backfill runs only after START (from the person or the sync
// worker); it is paused again by PAUSE or an auth error, and ends at ALL_DONE. Automated: none.
const enrichment = setup({
  types: {
    context: {} as {
      enrichedCount: number;
      totalCount: number;
      countsLoaded: boolean;
      skippedIds: string[];
      sinceLastReconcile: number;
    },
  },
  actors: {
    loadCounts: fromPromise(async () => ({ enriched: 0, total: 0 })),
    backfillLoop: fromCallback(() => () => {}),
  },
  guards: {
    allEnriched: ({ event }) => helper(event),
    hasUnenriched: ({ event }) => helper(event),
  },
  actions: {
    resetContext: assign({
      enrichedCount: 0,
      totalCount: 0,
      countsLoaded: false,
      skippedIds: [],
      sinceLastReconcile: 0,
    }),
    updateCounts: assign({
      enrichedCount: ({ event }) => helper(event),
      totalCount: ({ event }) => helper(event),
    }),
    setLoadedCounts: assign({
      countsLoaded: true,
      enrichedCount: ({ event }) => helper(event),
      totalCount: ({ event }) => helper(event),
    }),
    markCountsLoaded: assign({ countsLoaded: true }),
    incrementEnriched: assign({ enrichedCount: ({ context }) => context.enrichedCount + 1 }),
    addSkippedId: assign({
      skippedIds: ({ context, event }) => [...context.skippedIds, helper(event)],
    }),
    bumpSyncGeneration: () => {},
  },
}).createMachine({
  id: 'enrichment',
  initial: 'loadingCounts',
  context: {
    enrichedCount: 0,
    totalCount: 0,
    countsLoaded: false,
    skippedIds: [],
    sinceLastReconcile: 0,
  },
  on: {
    RESET: { target: '.loadingCounts', actions: 'resetContext' },
    REFRESH_COUNTS: { actions: 'updateCounts' },
  },
  states: {
    loadingCounts: {
      invoke: {
        src: 'loadCounts',
        onDone: [
          { guard: 'allEnriched', target: 'complete', actions: 'setLoadedCounts' },
          { target: 'paused', actions: 'setLoadedCounts' },
        ],
        onError: { target: 'paused', actions: 'markCountsLoaded' },
      },
    },
    paused: { on: { START: { target: 'running' } } },
    running: {
      invoke: { src: 'backfillLoop' },
      on: {
        PAUSE: { target: 'paused' },
        WORKOUT_ENRICHED: { actions: 'incrementEnriched' },
        WORKOUT_SKIPPED: { actions: 'addSkippedId' },
        REFRESH_COUNTS: { actions: 'updateCounts' },
        ALL_DONE: { target: 'complete', actions: 'bumpSyncGeneration' },
        AUTH_ERROR: { target: 'paused' },
      },
    },
    complete: {
      on: {
        REFRESH_COUNTS: [
          { guard: 'hasUnenriched', target: 'paused', actions: 'updateCounts' },
          { actions: 'updateCounts' },
        ],
        START: { target: 'running' },
      },
    },
  },
});

// A toast, spawned by its group (below). It leaves `visible` on its own (its duration runs out:
// DISMISS), then is removed; PAUSE/RESUME and UPDATE come from the group, which relays the
// pointer. No way back into `visible` once dismissed. Automated: none.
const toastMachine = setup({
  types: {
    context: {} as { type: string; duration: number; remainingTime: number; progress: number },
  },
  actions: {
    emitEvent: () => {},
    removeFromParent: () => {},
    setCloseTimer: assign({ closeTimerStartTime: () => Date.now() } as never),
    setProgress: assign({ progress: (_, params: { progress: number }) => params.progress }),
    syncRemainingTime: assign(({ context }) => ({ remainingTime: context.remainingTime - 1 })),
    update: assign(({ context }) => helper(context)),
  },
  actors: {
    waitForDuration: fromEventObservable(() =>
      animationFrames(() => (helper() ? { type: 'DISMISS' } : { type: 'PROGRESS', progress: 0 })),
    ),
    waitForNextTick: fromEventObservable(() => timer(0, () => ({ type: 'SHOW' }))),
    waitForRemoveDelay: fromEventObservable(() => timer(200, () => ({ type: 'REMOVE' }))),
  },
  guards: {
    isNotLoadingType: ({ context }) => context.type !== 'loading',
    shouldPersist: (_, params: { duration: number; type: string }) =>
      params.type === 'loading' || params.duration === Number.POSITIVE_INFINITY,
  },
}).createMachine({
  id: 'toast',
  context: { type: 'info', duration: 5000, remainingTime: 5000, progress: 0 },
  entry: [{ params: { status: 'visible' }, type: 'emitEvent' }],
  exit: 'removeFromParent',
  initial: 'visible',
  on: { REMOVE: '.removed' },
  states: {
    dismissing: {
      entry: { params: { status: 'dismissing' }, type: 'emitEvent' },
      invoke: { id: 'waitForRemoveDelay', src: 'waitForRemoveDelay' },
    },
    removed: { type: 'final', entry: { params: { status: 'removed' }, type: 'emitEvent' } },
    visible: {
      initial: 'idle',
      on: {
        UPDATE: [
          {
            actions: 'update',
            guard: {
              params: ({ context }) => ({ duration: context.duration, type: context.type }),
              type: 'shouldPersist',
            },
            target: '.persist',
          },
          { actions: 'update', target: '.updating' },
        ],
      },
      states: {
        idle: {
          invoke: { id: 'waitForDuration', src: 'waitForDuration' },
          tags: ['visible'],
          on: {
            DISMISS: { target: '#toast.dismissing' },
            PAUSE: { actions: 'syncRemainingTime', target: 'persist' },
            PROGRESS: { actions: { params: () => ({ progress: 0 }), type: 'setProgress' } },
          },
          always: {
            guard: {
              params: ({ context }) => ({ duration: context.duration, type: context.type }),
              type: 'shouldPersist',
            },
            target: 'persist',
          },
        },
        persist: {
          tags: ['visible', 'paused'],
          on: {
            RESUME: { actions: 'setCloseTimer', guard: 'isNotLoadingType', target: 'idle' },
            DISMISS: { target: '#toast.dismissing' },
          },
        },
        updating: {
          invoke: { id: 'waitForNextTick', src: 'waitForNextTick' },
          on: { SHOW: { target: 'idle' } },
          tags: ['visible', 'updating'],
        },
      },
    },
  },
});

// A group of toasts: it spawns each toast (checked in turn) and relays the pointer and the page's
// requests to them. Every move between active and paused is a person's or the page's. Automated:
// none, here or in the toasts it spawns.
const relay = (event: string, target: string) =>
  ({
    actions: { params: { event: { type: event } }, type: 'sendToAllChildToasts' },
    target,
  }) as never;
const toastGroup = setup({
  types: { context: {} as { toasts: unknown[] } },
  actors: { toastActor: toastMachine },
  actions: {
    removeChildToast: enqueueActions(({ context: { toasts }, enqueue }) => {
      enqueue.assign({ toasts: toasts.filter((toast) => toast !== null) });
    }),
    sendToChildToast: enqueueActions(({ enqueue, self }) => {
      const child = self.getSnapshot().children[''];
      if (child) enqueue.sendTo(child, { type: 'UPDATE' });
    }),
    sendToAllChildToasts: enqueueActions(({ enqueue, self }) => {
      for (const child of Object.values(self.getSnapshot().children))
        if (child) enqueue.sendTo(child, { type: 'PAUSE' });
    }),
    spawnChildToast: enqueueActions(({ enqueue }) => {
      enqueue.assign({
        toasts: ({ context, spawn }) => context.toasts.concat(spawn('toastActor', { id: 'toast' })),
      });
    }),
  },
}).createMachine({
  id: 'toastGroup',
  context: { toasts: [] },
  initial: 'active',
  states: {
    active: { on: { CREATE: { actions: { params: { paused: false }, type: 'spawnChildToast' } } } },
    paused: { on: { CREATE: { actions: { params: { paused: true }, type: 'spawnChildToast' } } } },
  },
  on: {
    RESUME_ALL: relay('RESUME', '.active'),
    POINTER_LEAVE: relay('RESUME', '.active'),
    RESUME: { actions: 'sendToChildToast' },
    REMOVE_CHILD: { actions: 'removeChildToast' },
    REMOVE: { actions: 'sendToChildToast' },
    REMOVE_ALL: relay('REMOVE', '.active'),
    DISMISS_ALL: relay('DISMISS', '.active'),
    POINTER_ENTER: relay('PAUSE', '.paused'),
    PAUSE_ALL: relay('PAUSE', '.paused'),
    DISMISS: { actions: 'sendToChildToast' },
    PAUSE: { actions: 'sendToChildToast' },
    UPDATE: { actions: 'sendToChildToast' },
  },
});

// An audio player whose load action tells the machine itself when the track has loaded
// (self.send inside a plain action, which the checker does not read). Play and pause are a
// person's; the loaded message only moves Loading on, once. Automated: none.
const audioPlayer = setup({
  types: { context: {} as { audioRef: object | null; currentTime: number } },
  actions: {
    onPlay: ({ context }) => helper(context.audioRef),
    onPause: ({ context }) => helper(context.audioRef),
    onRestart: ({ context }) => helper(context.audioRef),
    onError: (_, params: { message: unknown }) => helper(params.message),
    onLoad: assign(({ self }, params: { audioRef: object }) => {
      helper(params.audioRef, () => self.send({ type: 'loaded' }));
      return {};
    }),
    onUpdateTime: assign((_, params: { updatedTime: number }) => ({
      currentTime: params.updatedTime,
    })),
  },
}).createMachine({
  context: { audioRef: null, currentTime: 0 },
  id: 'Audio Player',
  initial: 'Init',
  states: {
    Init: {
      on: {
        loading: {
          target: 'Loading',
          actions: { type: 'onLoad', params: () => ({ audioRef: {} }) },
        },
        'init-error': {
          target: 'Error',
          actions: { type: 'onError', params: () => ({ message: '' }) },
        },
      },
    },
    Loading: {
      on: {
        loaded: { target: 'Active' },
        error: { target: 'Error', actions: { type: 'onError', params: () => ({ message: '' }) } },
      },
    },
    Active: {
      initial: 'Paused',
      states: {
        Paused: {
          entry: { type: 'onPause' },
          on: {
            play: { target: 'Playing' },
            restart: { target: 'Playing', actions: { type: 'onRestart' } },
          },
        },
        Playing: {
          entry: { type: 'onPlay' },
          on: {
            restart: { target: 'Playing', actions: { type: 'onRestart' } },
            end: { target: 'Paused' },
            pause: { target: 'Paused' },
            time: {
              target: 'Playing',
              actions: { type: 'onUpdateTime', params: () => ({ updatedTime: 0 }) },
            },
          },
        },
      },
    },
    Error: { type: 'final' },
  },
});

const app = (
  name: string,
  source: string,
  machine: CorpusEntry['machine'],
  automated: string[][] = [],
): CorpusEntry => ({ name, source, kind: 'app', machine, automated });
const WORKSHOP = 'helgardferreira/xstate-workshop';

export const heldOutApps: CorpusEntry[] = [
  app(
    'pomodoro timer',
    'burakakca/devmodoro src/machines/timerMachine.ts@0f97a2a324733e61cec483cc51f5732744f22be1',
    pomodoro,
  ),
  app(
    'realtime connection with backoff',
    'pakhunchan/collab-board src/machines/connectionMachine.ts@48e8433277e7708df3a8b3a17166ede73436705a',
    connection,
    [['connection.reconnecting']],
  ),
  app(
    'interval training timer',
    'murphyworld/HIT-Timer src/machines/timerMachine.ts@c1f62038569ae5f31c1dd9b8a9e7e73b63bde76d',
    intervalTimer,
  ),
  app(
    'CAD app sign-in',
    'KittyCAD/modeling-app src/machines/authMachine.ts@020b2a1d66aabb2912f59ee618b511342107cecf',
    cadAuth,
  ),
  app(
    'block puzzle',
    'jonstuebe/block-blast src/machines/gameMachine.ts@540019621e4112740cf027d860b07096f18cfa3c',
    blockBlast,
  ),
  app(
    'drawing game',
    'violabg/pictionary src/machines/gameMachine.ts@0d3f3a4ae7e2d5208370f1191ca130616e2902e2',
    pictionary,
  ),
  app(
    'party voting game',
    'HDZ65/undercover src/machines/gameMachine.ts@a4c6ca342c0b756f5524f7b8a3df046bda4a249c',
    undercover,
  ),
  app(
    'lottie players in sync',
    'django18/lottie-sync src/machines/syncMachine.ts@028ecf89e864dbf92118cc60cca1fcbd8d113026',
    lottieSync,
  ),
  app(
    'workout sync',
    'skrul/wattson src/machines/syncMachine.config.ts@82636d88e92076df9ee71267c3816122082d753e',
    workoutSync,
  ),
  app(
    'workout enrichment backfill',
    'skrul/wattson src/machines/enrichmentMachine.config.ts@5ed79a167ae029ef1aa3abcd4368764f772c9667',
    enrichment,
  ),
  app(
    'toast group spawning toasts',
    `${WORKSHOP} libs/toasts/src/lib/actors/toast-group/toast-group.machine.ts@95a275d2e089b81a0cca1eba3f9c84f43a8f739f`,
    toastGroup,
  ),
  app(
    'audio player (Effect)',
    'SandroMaglione/getting-started-xstate-and-effect audio-player-react/src/machine.ts@09bf970eee5bda7db89ac6848f559cd9c16941c5',
    audioPlayer,
  ),
];
