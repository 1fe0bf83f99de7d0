// Workflow machines from the XState repository's examples:
// statelyai/xstate @ b1811bf77bc2d1a74367328cec7907aa185b70df, examples/<name>/… as cited per entry.
// Structure transcribed (states, transitions, guards, timers, invokes); implementations stubbed.
import { assign, createMachine, fromCallback, log, setup } from 'xstate';
import { type CorpusEntry, task } from './CorpusEntry.js';

const REPO = 'statelyai/xstate';
const AT = 'b1811bf77bc2d1a74367328cec7907aa185b70df';
const at = (path: string) => `${REPO} ${path}@${AT}`;

const checkInbox = setup({
  types: { context: {} as { messages: unknown[] } },
  actors: {
    schedule: fromCallback(({ sendBack }) => {
      const i = setInterval(() => sendBack({ type: 'reminder' }), 2000);
      return () => clearInterval(i);
    }),
    checkInboxFunction: task,
    sendTextsFunction: task,
  },
}).createMachine({
  id: 'checkInbox',
  initial: 'Idle',
  context: { messages: [] },
  invoke: { src: 'schedule', input: { interval: 2000 } },
  states: {
    Idle: { on: { reminder: 'CheckInbox' } },
    CheckInbox: {
      invoke: {
        src: 'checkInboxFunction',
        onDone: { target: 'SendTextForHighPriority', actions: assign({ messages: () => [] }) },
      },
    },
    SendTextForHighPriority: { invoke: { src: 'sendTextsFunction', onDone: { target: 'Idle' } } },
  },
});

const monitorJob = setup({
  types: { context: {} as { jobStatus: string | undefined } },
  actors: {
    submitJob: task,
    checkJobStatus: task,
    reportJobSucceeded: task,
    reportJobFailed: task,
  },
}).createMachine({
  id: 'jobmonitoring',
  initial: 'SubmitJob',
  context: { jobStatus: undefined },
  states: {
    SubmitJob: { invoke: { src: 'submitJob', onDone: { target: 'WaitForCompletion' } } },
    WaitForCompletion: { after: { 5000: 'GetJobStatus' } },
    GetJobStatus: {
      invoke: {
        src: 'checkJobStatus',
        onDone: { target: 'DetermineCompletion', actions: assign({ jobStatus: 'SUCCEEDED' }) },
      },
    },
    DetermineCompletion: {
      always: [
        { guard: ({ context }) => context.jobStatus === 'SUCCEEDED', target: 'JobSucceeded' },
        { guard: ({ context }) => context.jobStatus === 'FAILED', target: 'JobFailed' },
        { target: 'WaitForCompletion' },
      ],
    },
    JobSucceeded: { invoke: { src: 'reportJobSucceeded', onDone: 'End' } },
    JobFailed: { invoke: { src: 'reportJobFailed', onDone: 'End' } },
    End: { type: 'final' },
  },
});

const vitalsCheck = createMachine(
  {
    id: 'vitalscheck',
    context: { tirePressure: null, oilPressure: null, coolantLevel: null, battery: null },
    initial: 'CheckVitals',
    states: {
      CheckVitals: {
        invoke: [
          { src: 'checkTirePressure', onDone: { actions: assign({ tirePressure: null }) } },
          { src: 'checkOilPressure', onDone: { actions: assign({ oilPressure: null }) } },
          { src: 'checkCoolantLevel', onDone: { actions: assign({ coolantLevel: null }) } },
          { src: 'checkBattery', onDone: { actions: assign({ battery: null }) } },
        ],
        always: {
          guard: ({ context }) =>
            !!(
              context.tirePressure &&
              context.oilPressure &&
              context.coolantLevel &&
              context.battery
            ),
          target: 'VitalsChecked',
        },
      },
      VitalsChecked: { type: 'final' },
    },
  },
  {
    actors: {
      checkTirePressure: task,
      checkOilPressure: task,
      checkCoolantLevel: task,
      checkBattery: task,
    },
  },
);

const carVitals = createMachine(
  {
    id: 'checkcarvitals',
    initial: 'WhenCarIsOn',
    states: {
      WhenCarIsOn: { on: { CarTurnedOnEvent: 'DoCarVitalChecks' } },
      DoCarVitalChecks: {
        invoke: {
          src: 'vitalscheck',
          onDone: { actions: () => {}, target: 'CheckContinueVitalChecks' },
        },
      },
      CheckContinueVitalChecks: { after: { 1000: 'DoCarVitalChecks' } },
    },
    on: { CarTurnedOffEvent: { actions: log('Car turned off'), target: '.WhenCarIsOn' } },
  },
  { actors: { vitalscheck: vitalsCheck } },
);

const monitorPatient = createMachine(
  {
    id: 'patientVitalsWorkflow',
    initial: 'MonitorVitals',
    states: {
      MonitorVitals: {
        on: {
          'org.monitor.highBodyTemp': { actions: 'sendTylenolOrder' },
          'org.monitor.highBloodPressure': { actions: 'callNurse' },
          'org.monitor.highRespirationRate': { actions: 'callPulmonologist' },
        },
      },
    },
  },
  { actions: { sendTylenolOrder: () => {}, callNurse: () => {}, callPulmonologist: () => {} } },
);

const fillingWater = createMachine({
  id: 'fillglassofwater',
  types: {} as { context: { counts: { current: number; max: number } } },
  initial: 'CheckIfFull',
  context: { counts: { current: 0, max: 10 } },
  states: {
    CheckIfFull: {
      always: [
        { target: 'AddWater', guard: ({ context }) => context.counts.current < context.counts.max },
        { target: 'GlassFull' },
      ],
    },
    AddWater: {
      after: {
        500: {
          actions: assign({
            counts: ({ context }) => ({ ...context.counts, current: context.counts.current + 1 }),
          }),
          target: 'CheckIfFull',
        },
      },
    },
    GlassFull: { type: 'final' },
  },
});

const purchaseOrder = createMachine(
  {
    id: 'order',
    initial: 'StartNewOrder',
    after: { PT30D: { target: '.CancelOrder' } },
    states: {
      StartNewOrder: {
        on: {
          OrderCreatedEvent: {
            actions: ['logNewOrderCreated'],
            target: 'WaitForOrderConfirmation',
          },
        },
      },
      WaitForOrderConfirmation: {
        on: { OrderConfirmedEvent: { actions: ['logOrderConfirmed'], target: 'WaitOrderShipped' } },
      },
      WaitOrderShipped: {
        on: { ShipmentSentEvent: { actions: ['logOrderShipped'], target: 'OrderFinished' } },
      },
      OrderFinished: { type: 'final', entry: ['logOrderFinished'] },
      CancelOrder: { invoke: { src: 'CancelOrder', onDone: { target: 'OrderCancelled' } } },
      OrderCancelled: { type: 'final', entry: ['logOrderCancelled'] },
    },
  },
  {
    delays: { PT30D: 15_000 },
    actions: {
      logNewOrderCreated: () => {},
      logOrderConfirmed: () => {},
      logOrderShipped: () => {},
      logOrderFinished: () => {},
      logOrderCancelled: () => {},
    },
    actors: { CancelOrder: task },
  },
);

const carAuction = createMachine(
  {
    id: 'handleCarAuctionBid',
    initial: 'StoreCarAuctionBid',
    context: { bids: [] as unknown[] },
    states: {
      StoreCarAuctionBid: {
        on: { CarBidEvent: { actions: assign({ bids: ({ context }) => [...context.bids, 1] }) } },
        after: { BiddingDelay: 'BiddingEnded' },
      },
      BiddingEnded: { type: 'final' },
    },
  },
  { delays: { BiddingDelay: 3000 } },
);

const mediaScanner = setup({
  actors: { scanLibrary: task, checkFilePermissions: task, evaluateFiles: task, moveFiles: task },
  actions: { emailErrors: () => {} },
}).createMachine({
  id: 'mediaScanner',
  initial: 'idle',
  context: { directoriesToCheck: [] as unknown[] },
  states: {
    idle: { on: { START_SCAN: { target: 'Scanning' } } },
    Scanning: {
      invoke: {
        id: 'scanLibrary',
        src: 'scanLibrary',
        onDone: [
          { target: 'CheckingFilePermissions', actions: assign({ directoriesToCheck: [] }) },
        ],
        onError: [{ target: 'ReportingErrors' }],
      },
    },
    CheckingFilePermissions: {
      invoke: {
        id: 'checkFilePermissions',
        src: 'checkFilePermissions',
        onDone: [{ target: 'EvaluatingFiles', actions: assign({}) }],
        onError: [{ target: 'ReportingErrors', actions: assign({}) }],
      },
    },
    ReportingErrors: { entry: { type: 'emailErrors' }, on: { RESTART: { target: 'idle' } } },
    EvaluatingFiles: {
      invoke: {
        id: 'evaluatingFiles',
        src: 'evaluateFiles',
        onDone: [{ target: 'MovingFiles', actions: assign({}) }],
      },
    },
    MovingFiles: {
      invoke: {
        src: 'moveFiles',
        id: 'moveFiles',
        onError: [{ target: 'ReportingErrors' }],
        onDone: 'idle',
      },
    },
  },
});

const onboarding = setup({ actors: { prompt: task } }).createMachine({
  id: 'onboarding',
  initial: 'Welcome',
  context: { name: undefined },
  states: {
    Welcome: {
      invoke: {
        src: 'prompt',
        onDone: { target: 'Personalize', actions: assign({ name: undefined }) },
      },
    },
    Personalize: { invoke: { src: 'prompt', onDone: 'Completed' } },
    Completed: { type: 'final' },
  },
});
const asyncSubflow = setup({ actors: { onboarding } }).createMachine({
  id: 'async-function-invocation',
  initial: 'Onboard',
  states: {
    Onboard: { invoke: { src: 'onboarding', onDone: 'Onboarded' } },
    Onboarded: { type: 'final' },
  },
});

export const xstateWorkflows: CorpusEntry[] = [
  {
    name: 'check inbox on a schedule',
    source: at('examples/workflow-check-inbox/main.ts'),
    kind: 'workflow',
    machine: checkInbox,
    automated: [['checkInbox.Idle', 'checkInbox.CheckInbox', 'checkInbox.SendTextForHighPriority']],
  },
  {
    name: 'monitor a job until it ends',
    source: at('examples/workflow-monitor-job/main.ts'),
    kind: 'workflow',
    machine: monitorJob,
    automated: [
      [
        'jobmonitoring.WaitForCompletion',
        'jobmonitoring.GetJobStatus',
        'jobmonitoring.DetermineCompletion',
      ],
    ],
  },
  {
    name: 'car vitals, rechecked every second while the car is on',
    source: at('examples/workflow-car-vitals/main.ts'),
    kind: 'workflow',
    machine: carVitals,
    automated: [['checkcarvitals.DoCarVitalChecks', 'checkcarvitals.CheckContinueVitalChecks']],
  },
  {
    name: 'patient monitor (reacts to outside events)',
    source: at('examples/workflow-monitor-patient/main.ts'),
    kind: 'workflow',
    machine: monitorPatient,
    automated: [],
  },
  {
    name: 'fill a glass of water (cap in context, unmarked)',
    source: at('examples/workflow-filling-water/main.ts'),
    kind: 'workflow',
    machine: fillingWater,
    automated: [['fillglassofwater.CheckIfFull', 'fillglassofwater.AddWater']],
  },
  {
    name: 'purchase order with a 30-day deadline',
    source: at('examples/workflow-purchase-order-deadline/main.ts'),
    kind: 'workflow',
    machine: purchaseOrder,
    automated: [],
  },
  {
    name: 'car auction bids',
    source: at('examples/workflow-car-auction-bids/main.ts'),
    kind: 'workflow',
    machine: carAuction,
    automated: [],
  },
  {
    name: 'media scanner',
    source: at('examples/workflow-media-scanner/src/mediaScannerMachine.ts'),
    kind: 'workflow',
    machine: mediaScanner,
    automated: [],
  },
  {
    name: 'async subflow (a child machine invoked)',
    source: at('examples/workflow-async-subflow/main.ts'),
    kind: 'workflow',
    machine: asyncSubflow,
    automated: [],
  },
];
