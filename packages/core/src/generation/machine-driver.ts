import {
  type AnyActorScope,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  createEmptyActor,
  type EventFrom,
  type EventObject,
  type ExecutableActionObject,
  fromPromise,
} from 'xstate';

/**
 * The invoked actors and custom actions a driven machine names, implemented against a run's own
 * scope. An actor's input is what the machine's `invoke.input` computed.
 */
export interface DriverImplementations<Scope> {
  actors: Record<string, (scope: Scope, input: never) => Promise<unknown>>;
  actions: Record<string, (scope: Scope, args: { context: never; event: never }, params: never) => void>;
}

/** One run of a driven machine: its scope, and the invocation the last step left running. */
interface DrivenRun<Scope> {
  scope: Scope;
  invocation: { id: string; src: string; input: unknown } | undefined;
}

export interface MachineDriver<Scope, Machine extends AnyStateMachine> {
  /** Runs a fresh machine from `input` until `isStop` holds (a final state always stops it). */
  start(scope: Scope, input: unknown, isStop: StopCheck<Machine>): Promise<SnapshotOf<Machine>>;
  /** Sends `event` to a restored snapshot, then runs until `isStop` holds. */
  send(
    scope: Scope,
    snapshot: SnapshotOf<Machine>,
    event: EventFrom<Machine>,
    isStop: StopCheck<Machine>,
  ): Promise<SnapshotOf<Machine>>;
}

type SnapshotOf<Machine extends AnyStateMachine> = ReturnType<Machine['resolveState']>;
type StopCheck<Machine extends AnyStateMachine> = (snapshot: SnapshotOf<Machine>) => boolean;

/** XState's name for the action that starts an invoked actor when its state is entered. */
const SPAWN = 'xstate.spawnChild';
/** Stops an invoked actor on leaving its state; the driver never started one, so there is nothing to stop. */
const STOP_CHILD = 'xstate.stopChild';

/**
 * Runs a state machine with `machine.transition(snapshot, event, actorScope)` on one actor scope
 * reused by every run, instead of an actor per run: an actor, its mailbox, its system and its
 * observers cost more than the machine's own steps, and XState's public pure `transition()` builds
 * an inert actor scope on every call. The machine stays the definition (states, guards, assigns,
 * routing); the driver does what an actor would do with a step's result, in the same order: it
 * runs each custom action as the step reaches it, then starts the invoked actor the step entered
 * and sends its `xstate.done.actor.<id>` or `xstate.error.actor.<id>` event back when it settles.
 *
 * It relies on XState internals (the actor scope's shape, the spawn action's params, the done and
 * error event names), so `xstate` is pinned to an exact version and `machine-driver.test.ts`
 * checks them. It runs machines without delays, parallel states, system ids, spawned actors or
 * sent events: any other built-in action is refused as an error rather than skipped.
 */
export function createMachineDriver<Scope, Machine extends AnyStateMachine>(
  definition: Machine,
  implementations: DriverImplementations<Scope>,
): MachineDriver<Scope, Machine> {
  const invocations = invocationsOf(definition.root);
  // Each invoked name gets one inert placeholder: XState builds a child actor from it on every
  // entry (about 2.5 µs, never started, dropped when the state is left) and, under the
  // `development` export condition that test runners use, warns on every step when a name has no
  // implementation at all. The driver computes the input itself and runs the real implementation.
  const placeholder = fromPromise<never>(() => new Promise<never>(() => {}));
  const machine = definition.provide({
    actors: Object.fromEntries([...invocations.values()].map(({ src }) => [src, placeholder])),
  } as never) as Machine;
  // A step runs synchronously, so the run it belongs to is known while XState calls back.
  let current: DrivenRun<Scope> | undefined;
  const self = createEmptyActor();
  const actorScope: AnyActorScope = {
    self,
    id: '',
    sessionId: '',
    system: self.system,
    logger: () => {},
    defer: () => {},
    emit: () => {},
    stopChild: () => {},
    actionExecutor: (action: ExecutableActionObject) => {
      const run = current as DrivenRun<Scope>;
      if (action.type === SPAWN) {
        const { id } = action.params as { id: string };
        const invocation = invocations.get(id);
        if (invocation === undefined) throw new Error(`The driven machine invoked an unnamed actor (${id})`);
        const { context, event } = action.info;
        const input =
          typeof invocation.input === 'function' ? invocation.input({ context, event, self }) : invocation.input;
        run.invocation = { id, src: invocation.src, input };
        return;
      }
      if (action.type === STOP_CHILD) return;
      const implementation = implementations.actions[action.type];
      if (implementation === undefined) throw new Error(`The machine driver cannot run the action ${action.type}`);
      implementation(run.scope, action.info as never, action.params as never);
    },
  };

  function step(run: DrivenRun<Scope>, advance: () => AnyMachineSnapshot): SnapshotOf<Machine> {
    run.invocation = undefined;
    current = run;
    try {
      const snapshot = advance();
      // `getInitialSnapshot` turns a throw into an error status; `transition` lets it through.
      if (snapshot.status === 'error') throw snapshot.error;
      return snapshot as SnapshotOf<Machine>;
    } finally {
      current = undefined;
    }
  }

  async function runToStop(
    run: DrivenRun<Scope>,
    first: SnapshotOf<Machine>,
    isStop: StopCheck<Machine>,
  ): Promise<SnapshotOf<Machine>> {
    let snapshot = first;
    while (snapshot.status !== 'done' && !isStop(snapshot)) {
      const invocation = run.invocation;
      if (invocation === undefined) throw new Error('The driven machine stopped with nothing running');
      const actor = implementations.actors[invocation.src];
      if (actor === undefined) throw new Error(`The machine driver has no actor ${invocation.src}`);
      let event: EventObject;
      try {
        const output = await actor(run.scope, invocation.input as never);
        event = { type: `xstate.done.actor.${invocation.id}`, output, actorId: invocation.id } as EventObject;
      } catch (error) {
        event = { type: `xstate.error.actor.${invocation.id}`, error, actorId: invocation.id } as EventObject;
      }
      const before = snapshot;
      snapshot = step(run, () => machine.transition(before, event, actorScope));
    }
    return snapshot;
  }

  return {
    async start(scope, input, isStop) {
      const run: DrivenRun<Scope> = { scope, invocation: undefined };
      return runToStop(
        run,
        step(run, () => machine.getInitialSnapshot(actorScope, input)),
        isStop,
      );
    },
    async send(scope, snapshot, event, isStop) {
      const run: DrivenRun<Scope> = { scope, invocation: undefined };
      return runToStop(
        run,
        step(run, () => machine.transition(snapshot, event, actorScope)),
        isStop,
      );
    },
  };
}

interface InvocationDefinition {
  src: string;
  input: unknown;
}

/** Every `invoke` of the machine by its id, with the actor's name and its input (a value or a function). */
function invocationsOf(node: AnyStateNode, found = new Map<string, InvocationDefinition>()) {
  for (const invocation of node.invoke) {
    if (typeof invocation.src !== 'string' || invocation.src.startsWith('xstate.invoke.')) {
      throw new Error(`The machine driver runs named actors only: ${invocation.id} is inline`);
    }
    found.set(invocation.id, { src: invocation.src, input: invocation.input });
  }
  for (const child of Object.values(node.states)) invocationsOf(child as AnyStateNode, found);
  return found;
}
