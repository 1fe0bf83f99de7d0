// App and agent machines from other public repositories, each cited as `owner/repo path@commit`.
// Structure transcribed (states, transitions, guards, timers, invokes); implementations stubbed.
import { assign, enqueueActions, fromCallback, not, raise, setup } from 'xstate';
import { type CorpusEntry, task } from './CorpusEntry.js';

// BrandonTing/tanstackStart-xstate-player: a video player, its search box, header and wheel.
const player = setup({
  types: { context: {} as { player: object | null; currentTime: number } },
  actors: { loadSrcActor: task },
  actions: {
    'Get Metadata': assign({}),
    'Play the video': () => {},
    'Pause the video': () => {},
    'Update Current Time': assign({}),
    Seek: enqueueActions(({ enqueue }) => {
      enqueue.assign({});
    }),
    'Set Volume': assign({}),
    'Set animation timestamp to now': assign({}),
  },
}).createMachine({
  context: { player: null, currentTime: 0 },
  initial: 'Idle',
  states: {
    Idle: {
      always: { target: 'PlayerLoaded', guard: ({ context }) => !!context.player },
      on: { 'Idle.setPlayer': { actions: assign({ player: () => ({}) }) } },
    },
    PlayerLoaded: {
      initial: 'Load',
      states: {
        Load: {
          invoke: {
            id: 'load',
            src: 'loadSrcActor',
            onDone: { target: 'Loaded' },
            onError: { target: 'Error' },
          },
        },
        Loaded: {
          type: 'parallel',
          states: {
            Controls: {
              initial: 'play',
              entry: 'Get Metadata',
              states: {
                play: {
                  entry: 'Play the video',
                  on: {
                    'Loaded.Pause': { target: 'paused' },
                    'Time.update': { actions: { type: 'Update Current Time' } },
                    'Video.Click': {
                      target: 'paused',
                      actions: raise({ type: 'animate', animation: 'paused' }),
                    },
                  },
                  initial: 'Idle',
                  states: {
                    Idle: { on: { 'Play.Hover': { target: 'Hovering' } } },
                    Hovering: {
                      after: { 2000: { target: 'Idle' } },
                      tags: ['Show Control'],
                      on: { 'Play.HoverEnd': { target: 'Idle' } },
                    },
                  },
                },
                paused: {
                  entry: 'Pause the video',
                  tags: ['Show Control'],
                  on: {
                    'Loaded.Play': { target: 'play' },
                    'Video.Click': {
                      target: 'play',
                      actions: raise({ type: 'animate', animation: 'playing' }),
                    },
                  },
                },
              },
              on: {
                'Time.seek': { actions: { type: 'Seek' } },
                'Time.skipBackward': { actions: { type: 'Seek' } },
                'Time.skipBackward.keyboard': {
                  actions: [{ type: 'Seek' }, raise({ type: 'animate', animation: 'backward' })],
                },
                'Time.skipForward': { actions: { type: 'Seek' } },
                'Time.skipForward.keyboard': {
                  actions: [{ type: 'Seek' }, raise({ type: 'animate', animation: 'forward' })],
                },
                'Volume.Toggle': { actions: assign({}) },
                'Volume.Set': { actions: { type: 'Set Volume' } },
              },
            },
            Animation: {
              initial: 'Idle',
              states: {
                Idle: {},
                'Animating playing state': { tags: ['Animate action'] },
                'Animating paused state': { tags: ['Animate action'] },
                'Animating backward': { tags: ['Animate action'] },
                'Animating forward': { tags: ['Animate action'] },
              },
              on: {
                'play-state-animation.end': { target: '.Idle' },
                animate: [
                  {
                    guard: ({ event }) => event.animation === 'playing',
                    target: '.Animating playing state',
                    actions: 'Set animation timestamp to now',
                  },
                  {
                    guard: ({ event }) => event.animation === 'paused',
                    target: '.Animating paused state',
                    actions: 'Set animation timestamp to now',
                  },
                  {
                    guard: ({ event }) => event.animation === 'backward',
                    target: '.Animating backward',
                    actions: 'Set animation timestamp to now',
                  },
                  {
                    guard: ({ event }) => event.animation === 'forward',
                    target: '.Animating forward',
                    actions: 'Set animation timestamp to now',
                  },
                ],
              },
            },
          },
        },
        Error: { type: 'final' },
        // In the original, `onDone` sits inside `states`: xstate reads it as a state, not as the
        // parent's onDone, so the Error final state is left only by the events below.
        onDone: { target: 'Idle' } as never,
      },
      on: { 'Destroy Player': { target: 'Idle', actions: [() => {}, assign({ player: null })] } },
    },
  },
  on: { 'Change Source': { target: '.Idle', actions: [() => {}, assign({})] } },
});

const searchAsType = setup({
  types: { context: {} as { keyword: string } },
  actors: { getSearchResult: task },
  actions: {
    'On Item Select': () => {},
    'Clear Context': assign({}),
    'On Active': () => {},
    'On Inactive': () => {},
  },
}).createMachine({
  context: { keyword: '' },
  initial: 'Inactive',
  states: {
    Inactive: { entry: 'On Inactive', on: { 'Status.Activate': { target: 'Active' } } },
    Active: {
      entry: 'On Active',
      initial: 'Idle',
      states: {
        Idle: {},
        Debouncing: {
          after: {
            500: [
              { target: 'Fetching', guard: ({ context }) => context.keyword.length > 2 },
              { target: 'Idle', actions: assign({}) },
            ],
          },
        },
        Fetching: {
          invoke: { src: 'getSearchResult', onDone: { target: 'Fetch Done', actions: assign({}) } },
        },
        'Fetch Done': {},
      },
      on: {
        'Status.Inactivate': { target: 'Inactive', actions: 'Clear Context' },
        'Condition.Keyword.Change': { target: '.Debouncing', reenter: true, actions: assign({}) },
        'Condition.Type.Change': { target: '.Debouncing', reenter: true, actions: assign({}) },
        'Item.Select': {
          target: 'Inactive',
          actions: ['Clear Context', { type: 'On Item Select' }],
        },
      },
    },
  },
});

const wheelScroll = setup({
  actions: { subscribeWheelEvent: () => {}, unSubscribeWheelEvent: () => {} },
}).createMachine({
  context: { abortController: null },
  initial: 'Idle',
  states: {
    Idle: { on: { 'Start Listening': { target: 'Listening', actions: 'subscribeWheelEvent' } } },
    Listening: { on: { End: { target: 'Idle', actions: ['unSubscribeWheelEvent', assign({})] } } },
  },
});

const headerOpen = setup({}).createMachine({
  initial: 'Idle',
  states: {
    Idle: { tags: ['Show'], after: { 1000: { target: 'Hide' } } },
    Triggered: { tags: ['Show'], on: { Hide: { target: 'Hide' } } },
    Hide: { on: { Show: { target: 'Triggered' } } },
  },
});

// mjbeswick/xstate-devtools: the example app's machines (auth, cart, player, notifications, search).
const auth = setup({
  actors: { loginService: task, verifyMfa: task },
  guards: { hasCredentials: () => true },
  actions: { setCredentials: assign({}), setMfaCode: assign({}), clearCredentials: assign({}) },
}).createMachine({
  id: 'auth',
  initial: 'idle',
  context: {},
  states: {
    idle: {
      on: {
        SUBMIT: { target: 'authenticating', guard: 'hasCredentials', actions: 'setCredentials' },
      },
    },
    authenticating: {
      initial: 'submittingCredentials',
      states: {
        submittingCredentials: {
          invoke: {
            id: 'login',
            src: 'loginService',
            onDone: { target: 'awaitingMfa', actions: assign({}) },
            onError: { target: '#auth.failed', actions: assign({}) },
          },
        },
        awaitingMfa: { on: { MFA_SUBMIT: { target: 'verifyingMfa', actions: 'setMfaCode' } } },
        verifyingMfa: {
          invoke: {
            id: 'mfa',
            src: 'verifyMfa',
            onDone: { target: '#auth.authenticated' },
            onError: { target: 'awaitingMfa', actions: assign({}) },
          },
        },
      },
    },
    authenticated: {
      initial: 'active',
      on: { LOGOUT: { target: 'idle', actions: 'clearCredentials' } },
      states: {
        active: {
          initial: 'home',
          states: {
            home: { on: { VIEW_PROFILE: 'profile', VIEW_SETTINGS: 'settings' } },
            profile: { on: { VIEW_HOME: 'home', VIEW_SETTINGS: 'settings' } },
            settings: {
              initial: 'general',
              on: { VIEW_HOME: 'home', VIEW_PROFILE: 'profile' },
              states: {
                general: { on: { TAB_SECURITY: 'security', TAB_BILLING: 'billing' } },
                security: {
                  initial: 'overview',
                  on: { TAB_GENERAL: 'general', TAB_BILLING: 'billing' },
                  states: {
                    overview: { on: { TOGGLE_2FA: 'twoFactor' } },
                    twoFactor: { on: { TOGGLE_2FA: 'overview' } },
                  },
                },
                billing: { on: { TAB_GENERAL: 'general', TAB_SECURITY: 'security' } },
              },
            },
          },
        },
      },
    },
    failed: {
      on: {
        RETRY: 'idle',
        SUBMIT: { target: 'authenticating', guard: 'hasCredentials', actions: 'setCredentials' },
      },
    },
  },
});

const cart = setup({
  guards: { hasItems: () => true, hasPaymentMethod: () => true },
  actions: {
    addItem: assign({}),
    removeItem: assign({}),
    applyPromo: assign({}),
    setCard: assign({}),
    setPaypal: assign({}),
    resetCart: assign({}),
  },
}).createMachine({
  id: 'cart',
  type: 'parallel',
  context: {},
  states: {
    inventory: {
      initial: 'browsing',
      states: {
        browsing: {
          on: { ADD_ITEM: { actions: 'addItem' }, REMOVE_ITEM: { actions: 'removeItem' } },
        },
      },
    },
    checkout: {
      initial: 'idle',
      states: {
        idle: { on: { START_CHECKOUT: { target: 'details', guard: 'hasItems' } } },
        details: {
          initial: 'reviewing',
          on: {
            APPLY_PROMO: { actions: 'applyPromo' },
            SUBMIT_ORDER: { target: 'processing', guard: 'hasPaymentMethod' },
          },
          states: {
            reviewing: { on: { OPEN_PAYMENT: 'choosingPayment' } },
            choosingPayment: {
              initial: 'card',
              states: {
                card: {
                  on: {
                    PICK_PAYPAL: 'paypal',
                    CONFIRM_PAYMENT: {
                      target: '#cart.checkout.details.reviewing',
                      actions: 'setCard',
                    },
                  },
                },
                paypal: {
                  on: {
                    PICK_CARD: 'card',
                    CONFIRM_PAYMENT: {
                      target: '#cart.checkout.details.reviewing',
                      actions: 'setPaypal',
                    },
                  },
                },
              },
            },
          },
        },
        processing: {
          initial: 'charging',
          states: {
            charging: { after: { 800: 'confirming' } },
            confirming: { after: { 700: '#cart.checkout.confirmed' } },
          },
        },
        confirmed: { on: { RESET: { target: 'idle', actions: 'resetCart' } } },
      },
    },
  },
});

const mediaPlayer = setup({
  actors: {
    bufferActor: fromCallback(({ sendBack }) => {
      let progress = 0;
      const interval = setInterval(() => {
        progress += 10;
        sendBack({ type: 'BUFFER_PROGRESS', progress });
        if (progress >= 100) sendBack({ type: 'BUFFER_COMPLETE' });
      }, 100);
      return () => clearInterval(interval);
    }),
  },
  actions: {
    loadSrc: assign({}),
    updatePosition: assign({}),
    updateVolume: assign({}),
    updateBufferProgress: assign({}),
    resetPlayer: assign({}),
  },
}).createMachine({
  id: 'player',
  initial: 'idle',
  context: {},
  states: {
    idle: { on: { LOAD: { target: 'buffering', actions: 'loadSrc' } } },
    buffering: {
      invoke: { id: 'buffer', src: 'bufferActor' },
      on: {
        BUFFER_PROGRESS: { actions: 'updateBufferProgress' },
        BUFFER_COMPLETE: 'playing',
        STOP: { target: 'idle', actions: 'resetPlayer' },
      },
    },
    playing: {
      on: {
        PAUSE: 'paused',
        SEEK: { actions: 'updatePosition' },
        VOLUME: { actions: 'updateVolume' },
        STOP: { target: 'idle', actions: 'resetPlayer' },
      },
    },
    paused: {
      on: {
        PLAY: 'playing',
        SEEK: { actions: 'updatePosition' },
        STOP: { target: 'idle', actions: 'resetPlayer' },
      },
    },
  },
});

const notifications = setup({
  actions: {
    grantPermission: assign({}),
    denyPermission: assign({}),
    addUnread: assign({}),
    clearUnread: assign({}),
    toggleQuietMode: assign({}),
  },
}).createMachine({
  id: 'notifications',
  initial: 'off',
  context: {},
  states: {
    off: { on: { REQUEST_PERMISSION: 'requesting' } },
    requesting: {
      on: {
        GRANT: { target: 'enabled', actions: 'grantPermission' },
        DENY: { target: 'disabled', actions: 'denyPermission' },
      },
    },
    enabled: {
      on: {
        PUSH_MESSAGE: { actions: 'addUnread' },
        MARK_ALL_READ: { actions: 'clearUnread' },
        TOGGLE_QUIET: { actions: 'toggleQuietMode' },
      },
    },
    disabled: { on: { REQUEST_PERMISSION: 'requesting' } },
  },
});

const search = setup({
  actors: { fakeSearch: task },
  actions: {
    setInput: assign({}),
    clearAll: assign({}),
    setResults: assign({}),
    setError: assign({}),
  },
}).createMachine({
  id: 'search',
  initial: 'idle',
  context: {},
  states: {
    idle: {
      on: { INPUT: { actions: 'setInput' }, SEARCH: 'loading', CLEAR: { actions: 'clearAll' } },
    },
    loading: {
      invoke: {
        id: 'search.request',
        src: 'fakeSearch',
        onDone: { target: 'ready', actions: 'setResults' },
        onError: { target: 'failed', actions: 'setError' },
      },
      on: { INPUT: { actions: 'setInput' } },
    },
    ready: {
      on: {
        INPUT: { actions: 'setInput' },
        SEARCH: 'loading',
        CLEAR: { target: 'idle', actions: 'clearAll' },
      },
    },
    failed: {
      on: {
        INPUT: { target: 'idle', actions: 'setInput' },
        SEARCH: 'loading',
        CLEAR: { target: 'idle', actions: 'clearAll' },
      },
    },
  },
});

// EduardoRenani/ai-agent-xstate: a tutoring agent that classifies each turn and answers in a mode.
const agent = setup({
  types: { context: {} as { messages: unknown[] } },
  actions: {
    appendUserMessage: assign({ messages: ({ context }) => [...context.messages, 'user'] }),
  },
  actors: {
    classifyingNode: task,
    greetingsThinkingNode: task,
    socraticTeachingNode: task,
    socraticEvaluatingNode: task,
    improvisingThinkingNode: task,
  },
}).createMachine({
  id: 'agent',
  initial: 'listening',
  context: { messages: [] },
  states: {
    listening: { on: { MESSAGE: { target: 'classifying', actions: 'appendUserMessage' } } },
    classifying: {
      invoke: {
        src: 'classifyingNode',
        onDone: [
          {
            guard: ({ event }) => (event.output as { intent?: string })?.intent === 'greetings',
            target: 'greetings',
          },
          {
            guard: ({ event }) => (event.output as { intent?: string })?.intent === 'socratic',
            target: 'socratic',
          },
          {
            guard: ({ event }) => (event.output as { intent?: string })?.intent === 'none',
            target: 'listening',
          },
          { target: 'improvising' },
        ],
      },
    },
    greetings: {
      initial: 'thinking',
      states: {
        thinking: {
          invoke: { src: 'greetingsThinkingNode', onDone: { target: 'done', actions: assign({}) } },
        },
        done: { type: 'final' },
      },
      onDone: { target: 'classifying' },
    },
    socratic: {
      initial: 'teaching',
      states: {
        teaching: {
          invoke: {
            src: 'socraticTeachingNode',
            onDone: { target: 'listening', actions: assign({}) },
          },
        },
        listening: { on: { MESSAGE: { target: 'evaluating', actions: 'appendUserMessage' } } },
        evaluating: {
          invoke: {
            src: 'socraticEvaluatingNode',
            onDone: [
              {
                guard: ({ event }) => event.output === 'achieved',
                target: 'done',
                actions: assign({}),
              },
              {
                guard: ({ event }) => event.output === 'abandoned',
                target: 'done',
                actions: assign({}),
              },
              { target: 'teaching', actions: assign({}) },
            ],
          },
        },
        done: { type: 'final' },
      },
      onDone: { target: 'classifying' },
    },
    improvising: {
      initial: 'thinking',
      states: {
        thinking: {
          invoke: {
            src: 'improvisingThinkingNode',
            onDone: { target: 'done', actions: assign({}) },
            onError: { target: 'done', actions: () => {} },
          },
        },
        done: { type: 'final' },
      },
      onDone: { target: 'classifying' },
    },
  },
});

// typeonce-dev/xstate-complete-getting-started-guide: movie search, notifications, an NPC, a form.
const movieSearch = setup({
  actors: { searching: task },
  actions: {
    onUpdatedSearchText: assign({}),
    onSearchedMovie: assign({}),
    onSearchedError: assign({}),
  },
}).createMachine({
  id: 'movie-search-machine',
  context: {},
  initial: 'Idle',
  on: {
    'updated-search-text': { target: '.UpdatedSearch', actions: { type: 'onUpdatedSearchText' } },
  },
  states: {
    Idle: {},
    UpdatedSearch: { after: { 600: { target: 'Searching' } } },
    Searching: {
      invoke: {
        src: 'searching',
        onError: { target: 'SearchError', actions: { type: 'onSearchedError' } },
        onDone: { target: 'Idle', actions: { type: 'onSearchedMovie' } },
      },
    },
    SearchError: {},
  },
});

const notificationsList = setup({
  types: { context: {} as { status: number | null } },
  guards: { canReload: ({ context }) => context.status === null || context.status < 500 },
  actors: { getNotifications: task },
  actions: { onUpdateErrorMessage: assign({}), onUpdateNotifications: assign({}) },
}).createMachine({
  context: { status: null },
  initial: 'Loading',
  states: {
    Loading: {
      invoke: {
        src: 'getNotifications',
        onError: { target: 'Error', actions: { type: 'onUpdateErrorMessage' } },
        onDone: { target: 'Opened', actions: { type: 'onUpdateNotifications' } },
      },
    },
    Opened: {},
    Error: { on: { fetch: { guard: 'canReload', target: 'Loading' } } },
  },
});

const npc = setup({
  types: { context: {} as { distance: number } },
  actors: {
    moveMouse: fromCallback(({ sendBack }) => {
      const event = (e: { clientX: number; clientY: number }) =>
        sendBack({ type: 'mouse-move', position: [e.clientX, e.clientY] });
      return () => event({ clientX: 0, clientY: 0 });
    }),
    moveNcp: fromCallback(({ sendBack }) => {
      const interval = setInterval(() => sendBack({ type: 'npc-move' }), 100);
      return () => clearInterval(interval);
    }),
  },
  actions: { onMouseMove: assign({}), onNpcMove: assign({}) },
  guards: {
    isNearby: ({ context }) => context.distance <= 200,
    canAttack: ({ context }) => context.distance <= 30,
  },
}).createMachine({
  id: 'npc-machine',
  context: { distance: 1000 },
  initial: 'Idle',
  invoke: { src: 'moveMouse' },
  on: { 'mouse-move': { actions: { type: 'onMouseMove' } } },
  states: {
    Idle: { always: { target: 'Chasing', guard: 'isNearby' } },
    Chasing: {
      invoke: { src: 'moveNcp' },
      always: [
        { target: 'Idle', guard: not('isNearby') },
        { target: 'Attacking', guard: 'canAttack' },
      ],
      on: { 'npc-move': { actions: { type: 'onNpcMove' } } },
    },
    Attacking: { always: { target: 'Chasing', guard: not('canAttack') } },
  },
});

const form = setup({
  actors: { submit: task },
  actions: { onUpdateUsername: assign({}), onUpdateAge: assign({}) },
}).createMachine({
  id: 'form-machine',
  context: {},
  initial: 'Idle',
  states: {
    Idle: {
      on: {
        'update-username': { actions: { type: 'onUpdateUsername' } },
        'update-age': { actions: { type: 'onUpdateAge' } },
        submit: { target: 'Submitting' },
      },
    },
    Submitting: { invoke: { src: 'submit', onDone: { target: 'Complete' } } },
    Complete: {},
  },
});

const BT = 'BrandonTing/tanstackStart-xstate-player';
const DEV = 'mjbeswick/xstate-devtools';
const GUIDE = 'typeonce-dev/xstate-complete-getting-started-guide';

export const otherApps: CorpusEntry[] = [
  {
    name: 'video player (shaka)',
    source: `${BT} app/machines/playerMachine.ts@56927a2a91b828ab09aba0ba2ada282f00bfaa2c`,
    kind: 'app',
    machine: player,
    automated: [],
  },
  {
    name: 'search as you type',
    source: `${BT} app/machines/searchAsTypeMachine.ts@4af4c480e10ddf58c68e6e6f6f927f696978a171`,
    kind: 'app',
    machine: searchAsType,
    automated: [],
  },
  {
    name: 'wheel scroll listener',
    source: `${BT} app/machines/wheelScrollMachine.ts@7eb0f764c1482f46867119ba9766e748d9c73735`,
    kind: 'app',
    machine: wheelScroll,
    automated: [],
  },
  {
    name: 'header show/hide',
    source: `${BT} app/machines/headerOpenMachine.ts@071e90268deaafc1a41ba873c47de6f1035fb07d`,
    kind: 'app',
    machine: headerOpen,
    automated: [],
  },
  {
    name: 'login with MFA and settings dashboard',
    source: `${DEV} packages/example-remix/app/machines/auth.machine.ts@04e79cc1785330b2f59d02b7acf4ed31a9a65baa`,
    kind: 'app',
    machine: auth,
    automated: [],
  },
  {
    name: 'cart and checkout (parallel)',
    source: `${DEV} packages/example-remix/app/machines/cart.machine.ts@04e79cc1785330b2f59d02b7acf4ed31a9a65baa`,
    kind: 'app',
    machine: cart,
    automated: [],
  },
  {
    name: 'media player with a buffering ticker',
    source: `${DEV} packages/example-remix/app/machines/player.machine.ts@0b7c7b7ba969a70d0c81db7dcea3518d8f80f9a8`,
    kind: 'app',
    machine: mediaPlayer,
    automated: [],
  },
  {
    name: 'notification permissions',
    source: `${DEV} packages/example-remix/app/machines/notifications.machine.ts@04e79cc1785330b2f59d02b7acf4ed31a9a65baa`,
    kind: 'app',
    machine: notifications,
    automated: [],
  },
  {
    name: 'search box',
    source: `${DEV} packages/example-remix/app/machines/search.machine.ts@72f02b056bf8621e9ce5f9501998b7181954ac25`,
    kind: 'app',
    machine: search,
    automated: [],
  },
  {
    name: 'tutoring agent (classify → answer → classify)',
    source: 'EduardoRenani/ai-agent-xstate src/machine.ts@01fc536899e28c2aa1012c2caa59d96963bdf8b6',
    kind: 'workflow',
    machine: agent,
    automated: [
      ['agent.classifying', 'agent.greetings.thinking', 'agent.greetings.done'],
      ['agent.classifying', 'agent.improvising.thinking', 'agent.improvising.done'],
    ],
  },
  {
    name: 'movie search with debounce',
    source: `${GUIDE} src/movie-search/machine.ts@675ddcf4fba5dc8308d6e5a50aef3f521cd29eaa`,
    kind: 'app',
    machine: movieSearch,
    automated: [],
  },
  {
    name: 'notifications list with reload',
    source: `${GUIDE} src/notifications/machine/machine.ts@6e61810ea159677d3e71561ce3dbb33a5d0a6e87`,
    kind: 'app',
    machine: notificationsList,
    automated: [],
  },
  {
    name: 'NPC that chases the mouse',
    source: `${GUIDE} src/npc/machine.ts@6618c2188bcc1e58a6e30fc7bf017de8efc0dd1a`,
    kind: 'app',
    machine: npc,
    automated: [],
  },
  {
    name: 'form submit',
    source: `${GUIDE} src/form/machine/machine.ts@0e96aaaeb69cf61b479c7435bfe1e62022690013`,
    kind: 'app',
    machine: form,
    automated: [],
  },
];
