import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { assign, fromPromise, raise, setup } from 'xstate';
import { createMachineDriver } from './machine-driver.js';

/**
 * The driver runs machines on XState internals (the actor scope, the spawn action's params, the
 * done and error event names). These tests fail when an upgrade changes them: bump the pin only
 * with them green.
 */

interface Log {
  entries: string[];
}

type Event = { type: 'GO'; amount: number };

const machine = setup({
  types: { context: {} as { total: number; tries: number }, input: {} as { total: number }, events: {} as Event },
  actors: {
    add: fromPromise<number, { total: number; amount: number }>(async () => 0),
  },
  actions: {
    note: (_, _params: { text: string }) => {},
    noteTotal: () => {},
  },
}).createMachine({
  id: 'counter',
  context: ({ input }) => ({ total: input.total, tries: 0 }),
  initial: 'idle',
  entry: { type: 'note', params: { text: 'started' } },
  states: {
    idle: {
      on: {
        GO: { target: 'adding', actions: { type: 'note', params: ({ event }) => ({ text: `go ${event.amount}` }) } },
      },
    },
    adding: {
      invoke: {
        src: 'add',
        input: ({ context, event }) => ({ total: context.total, amount: (event as Event).amount ?? 1 }),
        onDone: [
          {
            guard: ({ event }) => event.output < 10,
            target: 'adding',
            reenter: true,
            actions: [
              assign({ total: ({ event }) => event.output, tries: ({ context }) => context.tries + 1 }),
              'noteTotal',
            ],
          },
          { target: 'finished', actions: assign({ total: ({ event }) => event.output }) },
        ],
        onError: { target: 'broken' },
      },
    },
    finished: { type: 'final', entry: { type: 'note', params: { text: 'finished' } } },
    broken: { type: 'final', entry: { type: 'note', params: { text: 'broken' } } },
  },
});

function driverFor(add: (input: { total: number; amount: number }) => Promise<number>) {
  return createMachineDriver<Log, typeof machine>(machine, {
    actors: { add: (_log: Log, input: { total: number; amount: number }) => add(input) },
    actions: {
      note: (log: Log, { context }: { context: { total: number } }, params: { text: string }) =>
        log.entries.push(`${params.text} @${context.total}`),
      noteTotal: (log: Log, { context }: { context: { total: number } }) => log.entries.push(`total ${context.total}`),
    },
  });
}

const atIdle = (snapshot: { value: unknown }) => snapshot.value === 'idle';
const never = () => false;

describe('the machine driver (XState internals it relies on)', () => {
  it('runs against the exact xstate version core pins', () => {
    const require = createRequire(import.meta.url);
    const pinned = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).dependencies.xstate;
    let folder = path.dirname(require.resolve('xstate'));
    while (!folder.endsWith(`${path.sep}xstate`)) folder = path.dirname(folder);
    const installed = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')).version;

    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(installed).toBe(pinned);
  });

  it('runs entry actions, invokes with the computed input, routes done events and re-enters', async () => {
    const log: Log = { entries: [] };
    const inputs: { total: number; amount: number }[] = [];
    const driver = driverFor(async (input) => {
      inputs.push(input);
      return input.total + input.amount;
    });

    const idle = await driver.start(log, { total: 1 }, atIdle);
    expect(idle.value).toBe('idle');
    expect(log.entries).toEqual(['started @1']);

    const done = await driver.send(log, idle, { type: 'GO', amount: 4 }, never);
    expect(done.status).toBe('done');
    expect(done.value).toBe('finished');
    // The re-entered invocation reads the event that re-entered it (no `amount`: 1).
    expect(inputs).toEqual([
      { total: 1, amount: 4 },
      { total: 5, amount: 1 },
      { total: 6, amount: 1 },
      { total: 7, amount: 1 },
      { total: 8, amount: 1 },
      { total: 9, amount: 1 },
    ]);
    expect(done.context).toEqual({ total: 10, tries: 5 });
    expect(log.entries).toEqual([
      'started @1',
      'go 4 @1',
      'total 5',
      'total 6',
      'total 7',
      'total 8',
      'total 9',
      'finished @10',
    ]);
  });

  it('prints nothing while it runs, under the development build test runners load', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const log: Log = { entries: [] };
      const driver = driverFor(async (input) => input.total + input.amount);
      const idle = await driver.start(log, { total: 1 }, atIdle);
      await driver.send(log, idle, { type: 'GO', amount: 4 }, never);
      expect(warn).not.toHaveBeenCalled();
      expect(error).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
  });

  it('turns a rejected invocation into its error event', async () => {
    const log: Log = { entries: [] };
    const driver = driverFor(async () => {
      throw new Error('no adding today');
    });
    const idle = await driver.start(log, { total: 3 }, atIdle);

    const broken = await driver.send(log, idle, { type: 'GO', amount: 1 }, never);

    expect(broken.value).toBe('broken');
    expect(log.entries).toEqual(['started @3', 'go 1 @3', 'broken @3']);
  });

  it('restores a snapshot and runs on from it, as a resume does', async () => {
    const log: Log = { entries: [] };
    const driver = driverFor(async (input) => input.total + input.amount);
    const restored = machine.resolveState({ value: 'idle', context: { total: 20, tries: 0 } });

    const done = await driver.send(log, restored, { type: 'GO', amount: 2 }, never);

    expect(done.value).toBe('finished');
    expect(done.context.total).toBe(22);
    expect(log.entries).toEqual(['go 2 @20', 'finished @22']);
  });

  it('refuses an action it has no implementation for rather than skip it', async () => {
    const withCustom = setup({ actions: { custom: () => {} } }).createMachine({ entry: 'custom' });
    const raising = setup({}).createMachine({ entry: raise({ type: 'NEXT' }) });

    await expect(
      createMachineDriver(withCustom, { actors: {}, actions: {} }).start({}, undefined, never),
    ).rejects.toThrow('The machine driver cannot run the action custom');
    await expect(createMachineDriver(raising, { actors: {}, actions: {} }).start({}, undefined, never)).rejects.toThrow(
      'The machine driver cannot run the action xstate.raise',
    );
  });
});
