import { type ChildScript, startScript } from './bus-child-process.js';

/** A crash a worker announced (`crash <point> <ticket>`) and was killed for. */
export interface ObservedCrash {
  point: string;
  ticket: number;
  pid: number;
}

/**
 * Keeps `count` worker processes running: when one announces a planned crash it is killed with
 * SIGKILL at that very point and a new one is started in its place. Restarts are bounded, and
 * `stop()` ends every child it started, also when the test failed.
 */
export function superviseWorkers(options: {
  script: string;
  count: number;
  env: Record<string, string>;
  maxRestarts: number;
}) {
  const running: ChildScript[] = [];
  const everyChild: ChildScript[] = [];
  const crashes: ObservedCrash[] = [];
  /** Pids of every worker killed, at a planned point or at a random moment. */
  const killed: number[] = [];
  const handled = new WeakMap<ChildScript, number>();
  let restarts = 0;
  let failure: Error | undefined;

  const start = () => {
    const child = startScript(options.script, options.env);
    running.push(child);
    everyChild.push(child);
    handled.set(child, 0);
    return child;
  };
  for (let index = 0; index < options.count; index += 1) start();

  const watch = setInterval(() => {
    for (const child of [...running]) {
      const from = handled.get(child) ?? 0;
      const announced = child.lines.slice(from).filter((line) => line.startsWith('crash '));
      handled.set(child, child.lines.length);
      if (announced.length === 0) continue;
      // Two jobs of one worker may reach their crash points together: one kill serves both.
      for (const line of announced) {
        const [, point = '', ticket = ''] = line.split(' ');
        crashes.push({ point, ticket: Number(ticket), pid: child.process.pid ?? -1 });
      }
      killAndReplace(child);
    }
  }, 25);

  function killAndReplace(child: ChildScript): void {
    running.splice(running.indexOf(child), 1);
    child.process.kill('SIGKILL');
    killed.push(child.process.pid ?? -1);
    restarts += 1;
    if (restarts > options.maxRestarts) {
      failure = new Error(`more than ${options.maxRestarts} worker restarts`);
      return;
    }
    start();
  }

  return {
    crashes,
    killed,
    /** Kills a running worker chosen by `random` at whatever it is doing, and starts another. */
    killAtRandom(random: () => number): void {
      const child = running[Math.floor(random() * running.length)];
      if (child !== undefined) killAndReplace(child);
    },
    get restarts() {
      return restarts;
    },
    /** Throws if the supervisor gave up. */
    check(): void {
      if (failure !== undefined) throw failure;
    },
    /** Resolves once every running worker printed `ready`. */
    ready: () => Promise.all(running.map((child) => child.waitForLine(/^ready$/, 30_000))),
    /** All lines every worker printed, killed ones included. */
    lines: () => everyChild.flatMap((child) => child.lines),
    /** Lines starting with `prefix`, each with the child that printed it. */
    announced: (prefix: string) =>
      everyChild.flatMap((child) =>
        child.lines.filter((line) => line.startsWith(prefix)).map((line) => ({ line, child })),
      ),
    /** Drains the running workers (SIGTERM) and kills any child left. */
    async stop(): Promise<void> {
      clearInterval(watch);
      await Promise.all(running.map((child) => child.stop('SIGTERM')));
      await Promise.all(everyChild.map((child) => child.stop('SIGKILL')));
    },
  };
}
