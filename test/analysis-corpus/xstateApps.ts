// App machines from the XState repository's examples:
// statelyai/xstate @ b1811bf77bc2d1a74367328cec7907aa185b70df, examples/<name>/… as cited per entry.
// Structure transcribed (states, transitions, guards, timers, invokes); implementations stubbed.
import { assign, createMachine, enqueueActions, fromCallback, not, or, setup } from 'xstate';
import { type CorpusEntry, task } from './CorpusEntry.js';

const AT = 'b1811bf77bc2d1a74367328cec7907aa185b70df';
const at = (path: string) => `statelyai/xstate ${path}@${AT}`;

const fetchMachine = setup({ actors: { fetchUser: task } }).createMachine({
  initial: 'idle',
  context: { name: 'World', data: null },
  states: {
    idle: { on: { FETCH: 'loading' } },
    loading: {
      invoke: {
        src: 'fetchUser',
        onDone: { target: 'success', actions: assign({ data: null }) },
        onError: 'failure',
      },
    },
    success: {},
    failure: { after: { 1000: 'loading' }, on: { RETRY: 'loading' } },
  },
});

const snake = setup({
  types: { context: {} as { head: number; apple: number; tail: number[] } },
  guards: {
    'ate apple': ({ context }) => context.head === context.apple,
    'hit tail': ({ context }) => context.tail.includes(context.head),
    'hit wall': ({ context }) => context.head < 0,
  },
  actions: {
    'move snake': assign({ head: ({ context }) => context.head + 1 }),
    'save dir': assign({}),
    'increase score': assign({}),
    'show new apple': assign({ apple: ({ context }) => context.apple + 5 }),
    'grow snake': assign({}),
    reset: assign({}),
  },
  actors: {
    ticks: fromCallback(({ sendBack }) => {
      const i = setInterval(() => sendBack({ type: 'TICK' }), 80);
      return () => clearInterval(i);
    }),
  },
}).createMachine({
  id: 'SnakeMachine',
  context: { head: 0, apple: 3, tail: [] },
  initial: 'New Game',
  states: {
    'New Game': { on: { ARROW_KEY: { actions: 'save dir', target: 'Moving' } } },
    Moving: {
      entry: 'move snake',
      invoke: { src: 'ticks' },
      always: [
        { guard: 'ate apple', actions: ['grow snake', 'increase score', 'show new apple'] },
        { guard: or(['hit tail', 'hit wall']), target: 'Game Over' },
      ],
      on: { TICK: { actions: 'move snake' }, ARROW_KEY: { actions: 'save dir', target: 'Moving' } },
    },
    'Game Over': { on: { NEW_GAME: { actions: 'reset', target: 'New Game' } } },
  },
});

const timer = setup({
  actors: {
    ticks: fromCallback(({ sendBack }) => {
      const interval = setInterval(() => sendBack({ type: 'TICK' }), 1000);
      return () => clearInterval(interval);
    }),
  },
}).createMachine({
  context: { seconds: 0 },
  initial: 'stopped',
  states: {
    stopped: {
      on: {
        start: { guard: ({ context }) => context.seconds > 0, target: 'running' },
        minute: { actions: assign({ seconds: ({ context }) => context.seconds + 60 }) },
        second: { actions: assign({ seconds: ({ context }) => context.seconds + 1 }) },
      },
    },
    running: {
      invoke: { src: 'ticks' },
      on: {
        stop: 'stopped',
        TICK: { actions: assign({ seconds: ({ context }) => context.seconds - 1 }) },
      },
      always: { guard: ({ context }) => context.seconds === 0, target: 'stopped' },
    },
  },
  on: { reset: { guard: ({ context }) => context.seconds > 0, actions: assign({ seconds: 0 }) } },
});

const stopwatch = setup({
  actors: {
    ticks: fromCallback(({ sendBack }) => {
      const interval = setInterval(() => sendBack({ type: 'TICK' }), 10);
      return () => clearInterval(interval);
    }),
  },
}).createMachine({
  id: 'stopwatch',
  initial: 'stopped',
  context: { elapsed: 0 },
  states: {
    stopped: { on: { start: 'running' } },
    running: {
      invoke: { src: 'ticks' },
      on: {
        TICK: { actions: assign({ elapsed: ({ context }) => context.elapsed + 1 }) },
        stop: 'stopped',
      },
    },
  },
  on: { reset: { actions: assign({ elapsed: 0 }), target: '.stopped' } },
});

const tiles = setup({
  types: {} as { context: { tiles: number[] } },
  guards: {
    isAdjacent: () => true,
    allTilesInOrder: ({ context: { tiles } }) => tiles.every((tile, idx) => tile === idx),
  },
  actions: {
    clearSelectedTile: assign({}),
    clearHoveredTile: assign({}),
    setSelectedTile: assign({}),
    setHoveredTile: assign({}),
    swapTiles: assign({}),
    shuffleTiles: assign({}),
  },
}).createMachine({
  context: { tiles: [0, 1, 2] },
  initial: 'start',
  states: {
    start: {},
    gameOver: { id: 'gameOver', on: { shuffle: { target: 'playing', actions: ['shuffleTiles'] } } },
    playing: {
      on: { shuffle: { target: undefined } },
      states: {
        selecting: {
          id: 'selecting',
          on: { 'tile.select': { target: 'selected', actions: ['setSelectedTile'] } },
        },
        selected: {
          on: {
            'move.canceled': {
              actions: ['clearSelectedTile', 'clearHoveredTile'],
              target: 'selecting',
            },
            'tile.hover': [{ actions: ['setHoveredTile'] }],
            'tile.move': {
              actions: enqueueActions(({ enqueue, check }) => {
                if (check('isAdjacent')) {
                  enqueue('swapTiles');
                  enqueue('clearSelectedTile');
                  enqueue('clearHoveredTile');
                }
              }),
              target: '#selecting',
            },
          },
        },
      },
      always: { guard: 'allTilesInOrder', target: '#gameOver' },
      initial: 'selecting',
    },
  },
  on: { shuffle: { target: '.playing', actions: ['shuffleTiles'] } },
});

const trivia = setup({
  types: { context: {} as { lifes: number; points: number } },
  guards: {
    isAnswerCorrect: () => true,
    hasLostGame: ({ context }) => context.lifes <= 0,
    hasWonGame: ({ context }) => context.points >= 100,
  },
  actions: { goToTriviaPage: () => {}, resetTriviaData: assign({ points: 0, lifes: 3 }) },
  actors: { loadHomePageCharacters: task, loadSingleCharacter: task, loadRandomCharacters: task },
}).createMachine({
  id: 'triviaMachine',
  initial: 'homepage',
  context: { lifes: 3, points: 0 },
  states: {
    homepage: {
      initial: 'loadingData',
      states: {
        loadingData: {
          invoke: {
            src: 'loadHomePageCharacters',
            onDone: { actions: assign({}), target: 'dataLoaded' },
          },
        },
        dataLoaded: { on: { 'user.play': { target: '#instructionModal' } } },
      },
    },
    instructionModal: {
      id: 'instructionModal',
      on: {
        'user.close': { target: 'homepage.dataLoaded' },
        'user.reject': { target: 'homepage.dataLoaded' },
        'user.accept': { target: 'startTrivia', actions: assign({}) },
      },
    },
    startTrivia: {
      initial: 'loadQuestionData',
      id: 'startTrivia',
      entry: ['goToTriviaPage', 'resetTriviaData'],
      states: {
        loadQuestionData: {
          id: 'loadQuestionData',
          initial: 'loadCharacter',
          entry: assign({}),
          states: {
            loadCharacter: {
              invoke: {
                src: 'loadSingleCharacter',
                onDone: { actions: assign({}), target: 'loadRandomCharacters' },
              },
            },
            loadRandomCharacters: {
              invoke: {
                src: 'loadRandomCharacters',
                onDone: { actions: assign({}), target: '#questionReady' },
              },
            },
          },
        },
        questionReady: {
          id: 'questionReady',
          initial: 'questionStart',
          on: { 'user.toggleClue': { actions: assign({}) } },
          states: {
            questionStart: {
              on: {
                'user.selectAnswer': [
                  { target: 'correctAnswer', guard: 'isAnswerCorrect' },
                  { target: 'incorrectAnswer', guard: not('isAnswerCorrect') },
                ],
              },
            },
            correctAnswer: {
              entry: assign({ points: ({ context }) => context.points + 10 }),
              always: [
                { guard: 'hasLostGame', target: 'lostGame' },
                { guard: 'hasWonGame', target: 'wonGame' },
              ],
              on: { 'user.nextQuestion': { target: '#loadQuestionData' } },
            },
            incorrectAnswer: {
              entry: assign({ lifes: ({ context }) => context.lifes - 1 }),
              always: [
                { guard: 'hasLostGame', target: 'lostGame' },
                { guard: 'hasWonGame', target: 'wonGame' },
              ],
              on: { 'user.nextQuestion': { target: '#loadQuestionData' } },
            },
            lostGame: { on: { 'user.playAgain': { target: '#startTrivia' } } },
            wonGame: { on: { 'user.playAgain': { target: '#startTrivia' } } },
          },
        },
      },
    },
  },
});

const ticTacToe = createMachine(
  {
    initial: 'playing',
    context: { moves: 0 },
    states: {
      playing: {
        always: [
          { target: 'gameOver.winner', guard: 'checkWin' },
          { target: 'gameOver.draw', guard: 'checkDraw' },
        ],
        on: { PLAY: [{ target: 'playing', guard: 'isValidMove', actions: 'updateBoard' }] },
      },
      gameOver: {
        initial: 'winner',
        states: { winner: { tags: 'winner', entry: 'setWinner' }, draw: { tags: 'draw' } },
        on: { RESET: { target: 'playing', actions: 'resetGame' } },
      },
    },
  },
  {
    actions: { updateBoard: assign({}), resetGame: assign({}), setWinner: assign({}) },
    guards: { checkWin: () => false, checkDraw: () => false, isValidMove: () => true },
  },
);

const donut = createMachine({
  id: 'donut',
  initial: 'ingredients',
  states: {
    ingredients: { on: { NEXT: 'directions' } },
    directions: {
      initial: 'makeDough',
      onDone: 'fry',
      states: {
        makeDough: { on: { NEXT: 'mix' } },
        mix: {
          type: 'parallel',
          states: {
            mixDry: {
              initial: 'mixing',
              states: { mixing: { on: { MIXED_DRY: 'mixed' } }, mixed: { type: 'final' } },
            },
            mixWet: {
              initial: 'mixing',
              states: { mixing: { on: { MIXED_WET: 'mixed' } }, mixed: { type: 'final' } },
            },
          },
          onDone: 'allMixed',
        },
        allMixed: { type: 'final' },
      },
    },
    fry: { on: { NEXT: 'flip' } },
    flip: { on: { NEXT: 'dry' } },
    dry: { on: { NEXT: 'glaze' } },
    glaze: { on: { NEXT: 'serve' } },
    serve: { on: { ANOTHER_DONUT: 'ingredients' } },
  },
});

const flightBooker = setup({
  actions: { setDepartDate: assign({}), setReturnDate: assign({}) },
  guards: { 'isValidDepartDate?': () => true, 'isValidReturnDate?': () => true },
  actors: { Booker: task },
}).createMachine({
  id: 'flightBookerMachine',
  context: { departDate: '', returnDate: '' },
  initial: 'scheduling',
  states: {
    scheduling: {
      initial: 'oneWay',
      on: { CHANGE_DEPART_DATE: { actions: { type: 'setDepartDate' } } },
      states: {
        oneWay: {
          on: {
            CHANGE_TRIP_TYPE: { target: 'roundTrip' },
            BOOK_DEPART: {
              target: '#flightBookerMachine.booking',
              guard: { type: 'isValidDepartDate?' },
            },
          },
        },
        roundTrip: {
          on: {
            CHANGE_TRIP_TYPE: { target: 'oneWay' },
            CHANGE_RETURN_DATE: { actions: { type: 'setReturnDate' } },
            BOOK_RETURN: {
              target: '#flightBookerMachine.booking',
              guard: { type: 'isValidReturnDate?' },
            },
          },
        },
      },
    },
    booking: {
      invoke: { src: 'Booker', onDone: { target: 'booked' }, onError: { target: 'scheduling' } },
    },
    booked: { type: 'final' },
  },
});

export const xstateApps: CorpusEntry[] = [
  {
    name: 'fetch that retries after a second',
    source: at('examples/fetch/src/fetchMachine.ts'),
    kind: 'app',
    machine: fetchMachine,
    automated: [['(machine).loading', '(machine).failure']],
  },
  {
    name: 'snake game',
    source: at('examples/snake-react/src/snakeMachine.ts'),
    kind: 'app',
    machine: snake,
    automated: [],
  },
  {
    name: 'countdown timer',
    source: at('examples/timer/src/timerMachine.ts'),
    kind: 'app',
    machine: timer,
    automated: [],
  },
  {
    name: 'stopwatch',
    source: at('examples/stopwatch/src/stopwatchMachine.ts'),
    kind: 'app',
    machine: stopwatch,
    automated: [],
  },
  {
    name: 'sliding tiles',
    source: at('examples/tiles/src/tilesMachine.ts'),
    kind: 'app',
    machine: tiles,
    automated: [],
  },
  {
    name: 'trivia game',
    source: at('examples/trivia-game-example/src/triviaMachine.ts'),
    kind: 'app',
    machine: trivia,
    automated: [],
  },
  {
    name: 'tic-tac-toe',
    source: at('examples/tic-tac-toe-react/src/ticTacToeMachine.ts'),
    kind: 'app',
    machine: ticTacToe,
    automated: [],
  },
  {
    name: 'donut maker wizard',
    source: at('examples/persisted-donut-maker/donutMachine.ts'),
    kind: 'app',
    machine: donut,
    automated: [],
  },
  {
    name: '7GUIs flight booker',
    source: at('examples/7guis-flight-booker-react/src/machines/flightMachine.ts'),
    kind: 'app',
    machine: flightBooker,
    automated: [],
  },
];
