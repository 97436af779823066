import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, join as joinPath } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { natsBus } from '@interlude/bus';
import { uniqueId } from '@interlude/bus/testing';
import { createRuntime, type Runtime } from '@interlude/core';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { type KV, Kvm } from '@nats-io/kv';
import { connect, type NatsConnection, headers as natsHeaders } from '@nats-io/transport-node';
import { type ChildScript, startScript, watchChild } from '../support/bus-child-process.js';
import { freePort } from '../support/bus-raw-log.js';
import { childArguments } from '../support/child-bundles.js';
import { type StartedNatsServer, startNatsServer } from '../support/global-setup.js';
import { killNatsServer } from '../support/kill-nats-server.js';
import { readThroughElections } from '../support/reliability-wait.js';
import { defineExplorerAgent, type ExplorerParams } from './explorer-agent.js';
import type { KnownRow } from './known-failures.js';
import type { ExplorerWorld } from './schedule-runner.js';

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
/** How long `quiesce` waits with nothing of its generations moving before it lets the checks judge them. */
const STILL_MS = 30_000;

export interface NatsWorldOptions {
  workers: number;
  /** The workers' `jobAckWaitMs`: a job (or due timer) whose worker is silent this long is delivered again. */
  ackWaitMs: number;
  /** How long a worker holds inside an approved body, so a stop or kill lands there. */
  bodyHoldMs: number;
  /** The longest deadline a schedule sets. */
  longestDeadlineMs: number;
}

/**
 * The NATS explorer's world, shared by every schedule of a run: a nats-server of its own (on a
 * port and store it can kill and restart), worker processes serving the explorer's agent
 * (`explorer-worker-process.ts`), the person's runtime in this process, and one ledger file every
 * process appends each approved body to. Faults: SIGSTOP/SIGCONT a worker (preferring one inside
 * a body), SIGKILL one (and start another), SIGKILL and restart the server, and a keyless client
 * republishing events on other subjects.
 */
export async function startNatsWorld(options: NatsWorldOptions) {
  const scratch = await mkdtemp(join(tmpdir(), 'interlude-explorer-'));
  const storeDirectory = join(scratch, 'nats');
  const ledgerFile = join(scratch, 'ledger.txt');
  writeFileSync(ledgerFile, '');
  const port = await freePort();
  let server: StartedNatsServer = await startNatsServer(storeDirectory, port);
  const queue = uniqueId('explorer');
  const env = {
    NATS_URL: server.url,
    QUEUE: queue,
    JOB_ACK_WAIT_MS: String(options.ackWaitMs),
    LEDGER_FILE: ledgerFile,
    BODY_HOLD_MS: String(options.bodyHoldMs),
  };
  const everyWorker: ChildScript[] = [];
  const running: ChildScript[] = [];
  const startWorker = () => {
    const child = startScript('../explorer/explorer-worker-process.ts', env);
    everyWorker.push(child);
    running.push(child);
    return child;
  };
  for (let index = 0; index < options.workers; index += 1) startWorker();
  await Promise.all(running.map((child) => child.waitForLine(/^ready$/, 60_000)));

  const runtime: Runtime = createRuntime({ bus: natsBus({ servers: server.url, name: 'explorer-person' }) });
  const agent = defineExplorerAgent(runtime, {
    bodyRan: (generationId, toolCallId) => appendFileSync(ledgerFile, `ran ${generationId} ${toolCallId}\n`),
  });
  // The second runtime: another process of the same deployment (same key, same server, so the
  // same audience), resuming checkpoints it is handed over stdin.
  const resumer = startResumer({ NATS_URL: server.url, LEDGER_FILE: ledgerFile });
  await resumer.waitForLine(/^ready$/, 60_000);
  let resumes = 0;
  const keyless: NatsConnection = await connect({ servers: server.url, maxReconnectAttempts: -1 });
  let pendingBucket: KV | undefined;
  const bucket = async () => {
    pendingBucket ??= await new Kvm(keyless).open('interlude_pending');
    return pendingBucket;
  };
  const started = new Map<string, ExplorerParams>();
  const causes = new Map<string, KnownRow[]>();
  const stalls = new Set<Promise<void>>();
  const phantoms = new Set<string>();
  /** What the world did, for the run's summary line. */
  const faults = {
    stalls: 0,
    takeoverStalls: 0,
    kills: 0,
    killsInBody: 0,
    killsInDeadlineBody: 0,
    serverRestarts: 0,
    forgedEvents: 0,
    forgedPending: 0,
    deletedPending: 0,
    preemptedTimers: 0,
    resumedElsewhere: 0,
  };

  const addCause = (generationId: string | undefined, row: KnownRow) => {
    if (generationId === undefined) return;
    const list = causes.get(generationId) ?? [];
    if (!list.includes(row)) list.push(row);
    causes.set(generationId, list);
  };
  /** The generation whose body `child` most recently entered, if it has not reported a job since. */
  const inBody = (child: ChildScript): string | undefined => {
    const last = child.lines.findLast((line) => line.startsWith('body ') || line.startsWith('job '));
    return last?.startsWith('body ') ? last.split(' ')[1] : undefined;
  };
  // The jobs this world queued, by generation, and the ids of the jobs workers reported
  // (`job <status> <generation> <job id>`, but `fenced`: the delivery that took it over reports
  // it), read as lines arrive. Counted by job id, not by generation: a generation's workers also
  // report jobs nobody here queued (its expiry jobs) and a job twice (a delivery of it again after
  // a stall), and counting those made a job queued later look done while it ran, so the end of a
  // schedule answered what that job was answering: a legitimate `already_resumed` judged a
  // violation (the busier the machine, the likelier).
  const queuedJobs = new Map<string, string[]>();
  const reported = new Set<string>();
  const linesRead = new Map<ChildScript, number>();
  const readNewLines = () => {
    for (const child of everyWorker) {
      for (let index = linesRead.get(child) ?? 0; index < child.lines.length; index += 1) {
        const [word, status, , jobId] = (child.lines[index] as string).split(' ');
        if (word === 'job' && jobId !== undefined && status !== 'fenced') reported.add(jobId);
      }
      linesRead.set(child, child.lines.length);
    }
  };
  const queued = (generationId: string, jobId: string) =>
    queuedJobs.set(generationId, [...(queuedJobs.get(generationId) ?? []), jobId]);
  /** Jobs queued here and not yet reported, of `generationIds` or of every generation. */
  const jobsRunning = (generationIds: Iterable<string> = queuedJobs.keys()) => {
    readNewLines();
    let count = 0;
    for (const generationId of generationIds) {
      count += (queuedJobs.get(generationId) ?? []).filter((jobId) => !reported.has(jobId)).length;
    }
    return count;
  };
  /** The last event of each generation's log, to see whether any still moves. */
  const lastEvents = (generationIds: readonly string[]) =>
    Promise.all(
      generationIds.map(async (generationId) => {
        const last = (await runtime.bus.events(generationId).catch(() => [])).at(-1);
        return last === undefined ? '' : `${last.id} ${last.event}`;
      }),
    );
  const ledger = () => {
    const runs = new Map<string, number>();
    for (const line of readFileSync(ledgerFile, 'utf8').split('\n')) {
      if (!line.startsWith('ran ')) continue;
      const key = line.slice(4);
      runs.set(key, (runs.get(key) ?? 0) + 1);
    }
    return runs;
  };
  const stable = (last: string) => {
    const event = last.split(' ')[1];
    return event === undefined || event === 'input_requested' || TERMINAL.has(event);
  };
  const expiring = (generationId: string | undefined) =>
    generationId !== undefined && started.get(generationId)?.variant.expiresInMs !== undefined;
  /**
   * A worker to stop or kill: one inside the body of a generation whose question expires (the
   * deadline row: a worker meeting a deadline dies in the body it approved), else inside any body,
   * waiting up to `waitMs` for one to enter, else any.
   */
  const pickWorker = async (waitMs: number) => {
    const until = Date.now() + waitMs;
    for (;;) {
      const deadlineBody = running.find((child) => expiring(inBody(child)));
      if (deadlineBody !== undefined) return deadlineBody;
      const anyBody = running.find((child) => inBody(child) !== undefined);
      if (Date.now() >= until) return anyBody ?? running[0];
      await sleep(50);
    }
  };

  const world: ExplorerWorld & { close(): Promise<void>; workerErrors(): string; faults: typeof faults } = {
    runtime,
    faults,
    horizonMs: options.longestDeadlineMs + 2 * options.ackWaitMs + 1_000,
    expiryGraceMs: 2 * options.ackWaitMs + 1_000,
    strictSteps: false,
    phantoms,
    async start(params, generationId) {
      started.set(generationId, params);
      const { jobId } = await agent.handle(params).generateLater({ queue, generationId });
      queued(generationId, jobId);
      // A person can only answer once it asked: wait for the pause (or whatever ended it). Not
      // judged: a start slower than this is answered by id, as a stale link would be.
      for (let tries = 0; tries < 150 && jobsRunning([generationId]) > 0; tries += 1) await sleep(100);
    },
    async answerLater(generationId, answers) {
      const answered = await runtime.answerLater(generationId, answers, { queue });
      queued(generationId, answered.jobId);
      return answered;
    },
    bodyRuns: async () => ledger(),
    advance: (ms) => sleep(ms),
    async quiesce(generationIds) {
      // Waits on conditions, not a clock: every job queued here reports once (a stall or a kill
      // only delays it: it is delivered again), and the logs settle on a pause or an end. On a
      // loaded machine that takes longer, and what is checked next (that the generations ended or
      // wait, that the end's answers are taken) is only true once they did. It gives up only when
      // nothing of its generations moved for `STILL_MS` (no job reported, no event logged): a run
      // stuck for good, which the checks then report.
      let seen = '';
      let movedAt = Date.now();
      while (Date.now() - movedAt < STILL_MS) {
        // Its own jobs: other schedules sharing the world keep theirs running meanwhile.
        const running = jobsRunning(generationIds);
        const lasts = await lastEvents(generationIds);
        if (stalls.size === 0 && running === 0 && lasts.every(stable)) return;
        const now = `${running} ${lasts.join(',')}`;
        if (now !== seen) [seen, movedAt] = [now, Date.now()];
        await sleep(100);
      }
    },
    jobsRunning: (generationIds) => jobsRunning(generationIds),
    async beforeOutcomeUnknownAnswer() {
      // As documented: answer once the holder that stopped mid-call cannot still finish it.
      while (stalls.size > 0) await Promise.race(stalls);
      await sleep(2 * options.bodyHoldMs);
    },
    keyless: {
      canMisplace: true,
      async writePending(key, record) {
        faults.forgedPending += 1;
        await (await bucket()).put(key, JSON.stringify(record));
      },
      async deletePending(key) {
        faults.deletedPending += 1;
        await (await bucket()).delete(key);
      },
      async writeClaim(generationId, slot, record) {
        const subject = `interlude.claims.${generationId}.${slot}`;
        // A slot already written refuses it (discard new per subject): the forger tried.
        await jetstream(keyless)
          .publish(subject, JSON.stringify({ ...record, generation_id: generationId, slot }))
          .catch(() => undefined);
      },
      async preemptTimers(generationId) {
        faults.preemptedTimers += 1;
        const timer = { version: 1, generation_id: generationId, agent: 'desk', action: 'handle' };
        for (const slot of [0, 1, 2, 3, 4]) {
          const headers = natsHeaders();
          headers.set('Nats-Msg-Id', `${generationId}:${slot}`);
          await jetstream(keyless).publish(
            `interlude.timers.desk.${generationId}`,
            JSON.stringify({ ...timer, claim_slot: slot, due_at: new Date().toISOString() }),
            { headers },
          );
        }
      },
    },
    isForeign: (generationId) => started.has(generationId),
    causesOf: (generationId) => causes.get(generationId) ?? [],
    async resumeElsewhere(params, checkpoint, answers) {
      faults.resumedElsewhere += 1;
      resumes += 1;
      const n = resumes;
      resumer.process.stdin?.write(`${JSON.stringify({ n, params, checkpoint, answers })}\n`);
      await resumer.waitForLine(new RegExp(`^resumed ${n} `), 60_000);
    },
    async stallWorker(ms) {
      const child = await pickWorker(500);
      if (child === undefined) return;
      // Long enough for the job to be delivered again and taken over, or a short pause that is not.
      const stallMs = ms >= 2_000 ? 2.5 * options.ackWaitMs : 0.4 * options.ackWaitMs;
      faults.stalls += 1;
      if (stallMs > options.ackWaitMs) {
        faults.takeoverStalls += 1;
        addCause(inBody(child), 'stalled-holder-writes');
      }
      child.process.kill('SIGSTOP');
      const stall = sleep(stallMs).then(() => {
        child.process.kill('SIGCONT');
        stalls.delete(stall);
      });
      stalls.add(stall);
    },
    async killWorker() {
      const child = await pickWorker(2_000);
      if (child === undefined) return;
      const generationId = inBody(child);
      faults.kills += 1;
      if (generationId !== undefined) faults.killsInBody += 1;
      if (expiring(generationId)) {
        faults.killsInDeadlineBody += 1;
        addCause(generationId, 'deadline-timer-dropped');
      }
      running.splice(running.indexOf(child), 1);
      child.process.kill('SIGCONT');
      await child.stop('SIGKILL');
      await startWorker().waitForLine(/^ready$/, 60_000);
    },
    async restartServer() {
      faults.serverRestarts += 1;
      await killNatsServer(server);
      server = await startNatsServer(storeDirectory, port);
      // Back once the person's bus is: the checks read through it.
      await readThroughElections(async () => {
        const health = await runtime.bus.health?.();
        if (health !== undefined && !health.ok) throw Object.assign(new Error('bus down'), { code: 'bus_unavailable' });
      }).catch(() => undefined);
    },
    read: (operation) => readThroughElections(operation),
    async forgeEvent(fromId, toId) {
      const manager = await jetstreamManager(keyless);
      const subject = (id: string) => `interlude.gen.desk.handle.${id}.completed`;
      const stored = await manager.streams
        .getMessage('INTERLUDE_EVENTS', { last_by_subj: subject(fromId) })
        .catch(() => null);
      if (stored === null) return false;
      // Byte for byte, every header but the message id (the server would drop a repeated one).
      const copied = natsHeaders();
      for (const [key, values] of stored.header ?? []) {
        if (key.toLowerCase() === 'nats-msg-id') continue;
        for (const value of values) copied.append(key, value);
      }
      await jetstream(keyless).publish(subject(toId), stored.data, { headers: copied });
      faults.forgedEvents += 1;
      return true;
    },
    workerErrors: () => everyWorker.map((child) => child.errors()).join(''),
    async describe(generationId) {
      // For a failing seed's report: the log (every epoch), the claim chain, and the workers' lines.
      const events = await runtime.bus.events(generationId, { everyEpoch: true }).catch(() => []);
      const manager = await jetstreamManager(keyless);
      const claims: string[] = [];
      for (let slot = 0; ; slot += 1) {
        const subject = `interlude.claims.${generationId}.${slot}`;
        const found = await manager.streams.getMessage('INTERLUDE_CLAIMS', { last_by_subj: subject }).catch(() => null);
        if (found === null) break;
        const { kind, epoch, claimant } = found.json<{ kind: string; epoch: number; claimant?: string }>();
        claims.push(`  claim ${slot}: ${found.time.toISOString()} ${kind} epoch ${epoch} ${claimant ?? 'in process'}`);
      }
      return [
        ...events.map(
          (event) =>
            `  event ${event.time} ${event.run.slice(0, 8)} #${event.index} epoch ${event.epoch ?? 1} ${event.event}`,
        ),
        ...claims,
        ...everyWorker.flatMap((child) =>
          child.lines
            .filter((line) => line.includes(generationId))
            .map((line) => `  worker ${child.process.pid}: ${line}`),
        ),
      ].join('\n');
    },
    async close() {
      await Promise.all(stalls);
      await runtime.close().catch(() => undefined);
      resumer.process.stdin?.end();
      await resumer.stop('SIGTERM');
      await keyless.close().catch(() => undefined);
      await Promise.all(running.map((child) => child.stop('SIGTERM')));
      await Promise.all(everyWorker.map((child) => child.stop('SIGKILL')));
      await killNatsServer(server).catch(() => undefined);
      await rm(scratch, { recursive: true, force: true });
    },
  };
  return world;
}

/** The second runtime's process, with its stdin open for the checkpoints it is to resume. */
function startResumer(env: Record<string, string>): ChildScript {
  const here = dirname(fileURLToPath(import.meta.url));
  const child = spawn(process.execPath, childArguments(joinPath(here, 'explorer-resumer-process.ts')), {
    cwd: joinPath(here, '..'),
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  return watchChild(child, 'explorer-resumer-process.ts');
}
