import { type ChildScript, startBenchScript } from './child-script.js';

/** Tool bodies that ran in workers, per generation: the cross-process "ran twice" check reads them. */
export interface EffectCounts {
  lookup_order: number;
  issue_refund: number;
}

export interface MemorySample {
  jobs: number;
  rss: number;
  heapUsed: number;
}

/** A set of worker processes serving one queue. */
export interface WorkerSet {
  readonly queue: string;
  readonly size: number;
  /** Process ids of the set's workers, to read their CPU time. */
  readonly pids: number[];
  /** Effects per generation id, from every process of the set. */
  readonly effects: Map<string, EffectCounts>;
  /** Job outcomes reported, by status. */
  readonly jobs: Map<string, number>;
  /** Memory samples, in order (only when started with `sampleEvery`). */
  readonly memory: MemorySample[];
  /** Resolves once `count` samples have arrived. */
  waitForSamples(count: number, timeoutMs: number): Promise<void>;
  stop(): Promise<void>;
}

/** Starts `size` processes of `nats-worker.ts` on `queue` and reads what they print. */
export async function startWorkerSet(options: {
  natsUrl: string;
  queue: string;
  size: number;
  concurrency: number;
  sampleEvery?: number;
}): Promise<WorkerSet> {
  const effects = new Map<string, EffectCounts>();
  const jobs = new Map<string, number>();
  const memory: MemorySample[] = [];
  const sampleListeners = new Set<() => void>();
  const children: ChildScript[] = [];
  for (let index = 0; index < options.size; index += 1) {
    const child = startBenchScript('nats-worker.ts', {
      NATS_URL: options.natsUrl,
      QUEUE: options.queue,
      CONCURRENCY: String(options.concurrency),
      SAMPLE_EVERY: String(options.sampleEvery ?? 0),
    });
    child.onLine((line) => {
      const [kind, first, second, third] = line.split(' ');
      if (kind === 'effect' && (first === 'lookup_order' || first === 'issue_refund') && second !== undefined) {
        const counts = effects.get(second) ?? { lookup_order: 0, issue_refund: 0 };
        counts[first] += 1;
        effects.set(second, counts);
      } else if (kind === 'job' && first !== undefined) {
        jobs.set(first, (jobs.get(first) ?? 0) + 1);
      } else if (kind === 'memory') {
        memory.push({ jobs: Number(first), rss: Number(second), heapUsed: Number(third) });
        for (const listener of sampleListeners) listener();
      }
    });
    children.push(child);
  }
  await Promise.all(children.map((child) => child.waitForLine(/^ready$/)));
  return {
    queue: options.queue,
    size: options.size,
    pids: children.map((child) => child.process.pid as number),
    effects,
    jobs,
    memory,
    waitForSamples(count, timeoutMs) {
      if (memory.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          sampleListeners.delete(check);
          reject(new Error(`the worker printed ${memory.length} memory samples in ${timeoutMs} ms, expected ${count}`));
        }, timeoutMs);
        const check = () => {
          if (memory.length < count) return;
          clearTimeout(timer);
          sampleListeners.delete(check);
          resolve();
        };
        sampleListeners.add(check);
      });
    },
    async stop() {
      await Promise.all(children.map((child) => child.stop()));
    },
  };
}
