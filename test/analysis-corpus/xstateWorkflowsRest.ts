// The rest of the XState repository's workflow examples (every examples/workflow-* not in
// xstateWorkflows.ts), added after the checker was written and classified by hand before it ran on
// them: a held-out set, reported apart. statelyai/xstate @ b1811bf77bc2d1a74367328cec7907aa185b70df.
import { assign, createMachine, sendParent, setup } from 'xstate';
import { type CorpusEntry, task } from './CorpusEntry.js';

const AT = 'b1811bf77bc2d1a74367328cec7907aa185b70df';
const at = (name: string) => `statelyai/xstate examples/${name}/main.ts@${AT}`;

const roomReadings = setup({
  types: { context: {} as { temperature: number | null; humidity: number | null } },
  actors: { produceReport: task },
  delays: { PT1H: 10_000 },
}).createMachine({
  id: 'roomreadings',
  initial: 'ConsumeReading',
  context: { temperature: null, humidity: null },
  states: {
    ConsumeReading: {
      entry: assign({ temperature: null, humidity: null }),
      on: {
        TemperatureEvent: { actions: assign({ temperature: 20 }) },
        HumidityEvent: { actions: assign({ humidity: 50 }) },
      },
      after: {
        PT1H: {
          guard: ({ context }) => context.temperature !== null && context.humidity !== null,
          target: 'GenerateReport',
        },
      },
    },
    GenerateReport: { invoke: { src: 'produceReport', onDone: { target: 'ConsumeReading' } } },
  },
});

const applicantRequest = setup({
  guards: { isOver18: () => true },
  actors: { startApplicationWorkflowId: task, sendRejectionEmailFunction: task },
}).createMachine({
  id: 'applicantrequest',
  initial: 'CheckApplication',
  states: {
    CheckApplication: {
      on: {
        Submit: [
          { target: 'StartApplication', guard: 'isOver18', reenter: false },
          { target: 'RejectApplication', reenter: false },
        ],
      },
    },
    StartApplication: {
      invoke: { src: 'startApplicationWorkflowId', onDone: 'End', onError: 'RejectApplication' },
    },
    RejectApplication: { invoke: { src: 'sendRejectionEmailFunction', onDone: 'End' } },
    End: { type: 'final' },
  },
});

const asyncFunction = setup({ actors: { sendEmail: task } }).createMachine({
  id: 'async-function-invocation',
  initial: 'Send email',
  states: {
    'Send email': { invoke: { src: 'sendEmail', onDone: 'Email sent' } },
    'Email sent': { type: 'final' },
  },
});

const bookLending = createMachine(
  {
    initial: 'Book Lending Request',
    context: { status: 'unknown' as string },
    states: {
      'Book Lending Request': {
        on: { bookLendingRequest: { target: 'Get Book Status', actions: assign({}) } },
      },
      'Get Book Status': {
        invoke: {
          src: 'Get status for book',
          onDone: { target: 'Book Status Decision', actions: assign({}) },
        },
      },
      'Book Status Decision': {
        always: [
          {
            guard: ({ context }) => context.status === 'onloan',
            target: 'Report Status To Lender',
          },
          { guard: ({ context }) => context.status === 'available', target: 'Check Out Book' },
          { target: 'End' },
        ],
      },
      'Report Status To Lender': {
        invoke: { src: 'Send status to lender', onDone: { target: 'Wait for Lender response' } },
      },
      'Wait for Lender response': {
        on: { holdBook: { target: 'Request Hold' }, declineBookhold: { target: 'Cancel Request' } },
      },
      'Request Hold': {
        invoke: { src: 'Request hold for lender', onDone: { target: 'Sleep two weeks' } },
      },
      'Cancel Request': {
        invoke: { src: 'Cancel hold request for lender', onDone: { target: 'End' } },
      },
      'Sleep two weeks': { after: { PT2W: { target: 'Get Book Status' } } },
      'Check Out Book': {
        initial: 'Checking out book',
        states: {
          'Checking out book': {
            invoke: { src: 'Check out book with id', onDone: { target: 'Notifying Lender' } },
          },
          'Notifying Lender': {
            invoke: { src: 'Notify Lender for checkout', onDone: { target: 'End' } },
          },
          End: { type: 'final' },
        },
      },
      End: { type: 'final' },
    },
  },
  {
    delays: { PT2W: 20_000 },
    actors: {
      'Get status for book': task,
      'Send status to lender': task,
      'Request hold for lender': task,
      'Cancel hold request for lender': task,
      'Check out book with id': task,
      'Notify Lender for checkout': task,
    },
  },
);

const creditCheck = setup({
  types: { context: {} as { decision: string | null } },
  actors: {
    callCreditCheckMicroservice: task,
    startApplicationWorkflowId: task,
    sendRejectionEmailFunction: task,
  },
  delays: { PT15M: 15_000 },
}).createMachine({
  id: 'customercreditcheck',
  initial: 'CheckCredit',
  context: { decision: null },
  states: {
    CheckCredit: {
      invoke: {
        src: 'callCreditCheckMicroservice',
        onDone: { target: 'EvaluateDecision', actions: assign({ decision: 'Approved' }) },
      },
      after: { PT15M: 'Timeout' },
    },
    EvaluateDecision: {
      always: [
        { guard: ({ context }) => context.decision === 'Approved', target: 'StartApplication' },
        { guard: ({ context }) => context.decision === 'Denied', target: 'RejectApplication' },
        { target: 'RejectApplication' },
      ],
    },
    StartApplication: { invoke: { src: 'startApplicationWorkflowId', onDone: { target: 'End' } } },
    RejectApplication: { invoke: { src: 'sendRejectionEmailFunction', onDone: { target: 'End' } } },
    End: { type: 'final' },
    Timeout: {},
  },
});

const vetAppointment = setup({ actors: { MakeAppointmentAction: task } }).createMachine({
  id: 'VetAppointmentWorkflow',
  initial: 'Idle',
  context: { patientInfo: null, appointmentInfo: null },
  states: {
    Idle: {
      on: { MakeVetAppointment: { target: 'MakeVetAppointmentState', actions: assign({}) } },
    },
    MakeVetAppointmentState: {
      invoke: { src: 'MakeAppointmentAction', onDone: { target: 'Idle', actions: assign({}) } },
    },
  },
});

const eventBased = setup({
  actors: {
    handleApprovedVisaWorkflowID: task,
    handleRejectedVisaWorkflowID: task,
    handleNoVisaDecisionWorkflowId: task,
  },
  delays: { visaDecisionTimeout: 10_000 },
}).createMachine({
  id: 'eventbasedswitchstate',
  initial: 'CheckVisaStatus',
  states: {
    CheckVisaStatus: {
      on: { visaApprovedEvent: 'HandleApprovedVisa', visaRejectedEvent: 'HandleRejectedVisa' },
      after: { visaDecisionTimeout: 'HandleNoVisaDecision' },
    },
    HandleApprovedVisa: { invoke: { src: 'handleApprovedVisaWorkflowID', onDone: 'End' } },
    HandleRejectedVisa: { invoke: { src: 'handleRejectedVisaWorkflowID', onDone: 'End' } },
    HandleNoVisaDecision: { invoke: { src: 'handleNoVisaDecisionWorkflowId', onDone: 'End' } },
    End: { type: 'final' },
  },
});

const eventGreeting = setup({ actors: { greetingFunction: task } }).createMachine({
  id: 'event-greeting',
  initial: 'Waiting',
  context: { greeting: undefined },
  states: {
    Waiting: { on: { greet: 'Greet' } },
    Greet: {
      invoke: { src: 'greetingFunction', onDone: { target: 'Greeted', actions: assign({}) } },
    },
    Greeted: { type: 'final' },
  },
});

const finalizeCollegeApp = setup({
  types: { context: {} as { a: boolean; b: boolean; c: boolean } },
  actors: { finalizeApplicationFunction: task },
}).createMachine({
  id: 'finalizeCollegeApplication',
  context: { a: false, b: false, c: false },
  initial: 'FinalizeApplication',
  states: {
    FinalizeApplication: {
      on: {
        ApplicationSubmitted: { actions: assign({ a: true }) },
        SATScoresReceived: { actions: assign({ b: true }) },
        RecommendationLetterReceived: { actions: assign({ c: true }) },
      },
      always: {
        guard: ({ context }) => context.a && context.b && context.c,
        target: 'FinalizingApplication',
      },
    },
    FinalizingApplication: { invoke: { src: 'finalizeApplicationFunction', onDone: 'Finalized' } },
    Finalized: { type: 'final' },
  },
});

const greeting = setup({ actors: { greetingFunction: task } }).createMachine({
  id: 'greeting',
  context: { greeting: undefined },
  initial: 'Greet',
  states: {
    Greet: {
      invoke: { src: 'greetingFunction', onDone: { target: 'Greeted', actions: assign({}) } },
    },
    Greeted: { type: 'final' },
  },
});

const hello = createMachine({
  id: 'helloworld',
  initial: 'Hello State',
  states: { 'Hello State': { type: 'final' } },
});

const mathProblem = setup({ actors: { batchMathFunction: task } }).createMachine({
  id: 'math-problem',
  initial: 'Solve',
  context: { results: undefined },
  states: {
    Solve: {
      invoke: { src: 'batchMathFunction', onDone: { target: 'Solved', actions: assign({}) } },
    },
    Solved: { type: 'final' },
  },
});

const patientOnboarding = createMachine(
  {
    id: 'patientonboarding',
    initial: 'Idle',
    context: { patient: null },
    states: {
      Idle: { on: { NewPatientEvent: { target: 'Onboard', actions: assign({}) } } },
      Onboard: {
        initial: 'StorePatient',
        states: {
          StorePatient: {
            invoke: {
              src: 'StoreNewPatientInfo',
              onDone: { target: 'AssignDoctor' },
              onError: { target: '#End' },
            },
          },
          AssignDoctor: {
            invoke: {
              src: 'AssignDoctor',
              onDone: { target: 'ScheduleAppt' },
              onError: { target: '#End' },
            },
          },
          ScheduleAppt: {
            invoke: {
              src: 'ScheduleAppt',
              onDone: { target: 'Done' },
              onError: { target: '#End' },
            },
          },
          Done: { type: 'final' },
        },
        onDone: { target: 'End', actions: assign({ patient: null }) },
      },
      End: { id: 'End', type: 'final' },
    },
  },
  { actors: { StoreNewPatientInfo: task, AssignDoctor: task, ScheduleAppt: task } },
);

const parallel = setup({ actors: { shortDelay: task, longDelay: task } }).createMachine({
  id: 'parallel-execution',
  initial: 'ParallelExec',
  states: {
    ParallelExec: {
      type: 'parallel',
      states: {
        ShortDelayBranch: {
          initial: 'active',
          states: {
            active: { invoke: { src: 'shortDelay', onDone: 'done' } },
            done: { type: 'final' },
          },
        },
        LongDelayBranch: {
          initial: 'active',
          states: {
            active: { invoke: { src: 'longDelay', onDone: 'done' } },
            done: { type: 'final' },
          },
        },
      },
      onDone: 'Success',
    },
    Success: { type: 'final' },
  },
});

const provisionOrders = setup({
  actors: {
    provisionOrderFunction: task,
    applyOrderWorkflowId: task,
    handleMissingIdExceptionWorkflow: task,
    handleMissingItemExceptionWorkflow: task,
    handleMissingQuantityExceptionWorkflow: task,
  },
}).createMachine({
  id: 'provisionorders',
  initial: 'ProvisionOrder',
  context: { order: null },
  states: {
    ProvisionOrder: {
      invoke: {
        src: 'provisionOrderFunction',
        onDone: 'ApplyOrder',
        onError: [
          {
            guard: ({ event }) => String(event.error) === 'Missing order id',
            target: 'Exception.MissingId',
          },
          {
            guard: ({ event }) => String(event.error) === 'Missing order item',
            target: 'Exception.MissingItem',
          },
          {
            guard: ({ event }) => String(event.error) === 'Missing order quantity',
            target: 'Exception.MissingQuantity',
          },
        ],
      },
    },
    ApplyOrder: { invoke: { src: 'applyOrderWorkflowId', onDone: 'End' } },
    End: { type: 'final' },
    Exception: {
      initial: 'MissingId',
      states: {
        MissingId: { invoke: { src: 'handleMissingIdExceptionWorkflow', onDone: 'End' } },
        MissingItem: { invoke: { src: 'handleMissingItemExceptionWorkflow', onDone: 'End' } },
        MissingQuantity: {
          invoke: { src: 'handleMissingQuantityExceptionWorkflow', onDone: 'End' },
        },
        End: { type: 'final' },
      },
      onDone: 'End',
    },
  },
});

const reusingFunctions = setup({
  guards: { fundsAvailable: () => true },
  actors: { checkfunds: task, sendSuccessEmail: task, sendInsufficientFundsEmail: task },
}).createMachine({
  id: 'paymentconfirmation',
  initial: 'Pending',
  context: { customer: null, payment: null, funds: null, accountId: null },
  states: {
    Pending: { on: { PaymentReceivedEvent: { actions: assign({}), target: 'PaymentReceived' } } },
    PaymentReceived: {
      invoke: { src: 'checkfunds', onDone: { actions: assign({}), target: 'ConfirmBasedOnFunds' } },
    },
    ConfirmBasedOnFunds: {
      always: [
        { guard: 'fundsAvailable', target: 'SendPaymentSuccess' },
        { target: 'SendInsufficientResults' },
      ],
    },
    SendPaymentSuccess: { invoke: { src: 'sendSuccessEmail', onDone: { target: 'End' } } },
    SendInsufficientResults: {
      invoke: { src: 'sendInsufficientFundsEmail', onDone: { target: 'End' } },
    },
    End: { type: 'final', entry: sendParent(() => ({ type: 'paymentConfirmed' })) },
  },
});

const sendCloudEvent = setup({ actors: { provisionOrdersFunction: task } }).createMachine({
  id: 'sendcloudeventonprovision',
  context: { provisionedOrders: undefined },
  initial: 'ProvisionOrdersState',
  states: {
    ProvisionOrdersState: {
      invoke: { src: 'provisionOrdersFunction', onDone: { actions: assign({}), target: 'End' } },
    },
    End: { type: 'final' },
  },
});

const workflow = (
  name: string,
  machine: CorpusEntry['machine'],
  automated: string[][] = [],
): CorpusEntry => ({
  name,
  source: at(`workflow-${name}`),
  kind: 'workflow',
  machine,
  automated,
});

/** Every cycle here needs an outside event on some lap: none is automated. */
export const xstateWorkflowsRest: CorpusEntry[] = [
  workflow('accumulate-room-readings', roomReadings),
  workflow('applicant-request', applicantRequest),
  workflow('async-function', asyncFunction),
  workflow('book-lending', bookLending),
  workflow('credit-check', creditCheck),
  workflow('event-based-service', vetAppointment),
  workflow('event-based', eventBased),
  workflow('event-greeting', eventGreeting),
  workflow('finalize-college-app', finalizeCollegeApp),
  workflow('greeting', greeting),
  workflow('hello', hello),
  workflow('math-problem', mathProblem),
  workflow('new-patient-onboarding', patientOnboarding),
  workflow('parallel', parallel),
  workflow('provision-orders', provisionOrders),
  workflow('reusing-functions', reusingFunctions),
  workflow('send-cloudevent', sendCloudEvent),
];
