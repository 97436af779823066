import { seededRandom } from '../support/reliability-wait.js';
import type { GenerationVariant } from './explorer-agent.js';

/**
 * One step of a schedule. `generation` is the position of a generation the schedule started;
 * steps that name one not started yet are skipped. A step marked `concurrent` is started and not
 * waited for, so it races the steps after it; `settle` waits for everything in flight.
 */
export type Step =
  /** `preemptTimers`: a client with no key publishes timers for it first, under the ids a keyless server would dedupe on. */
  | { kind: 'start'; generation: number; variant: GenerationVariant; preemptTimers?: true }
  /** A person reads `pending()` and answers what it shows (by its prompt), or, not listed, answers by id anyway. */
  | { kind: 'answer'; generation: number; concurrent: boolean }
  /** The same, through a job a worker runs (`answerLater`). */
  | { kind: 'answer-later'; generation: number }
  /** A second runtime in this process, on a bus of its own, resumes the stored checkpoint. */
  | { kind: 'answer-elsewhere'; generation: number }
  | { kind: 'cancel'; generation: number; concurrent: boolean }
  /** The clock moves on: deadlines fall due. */
  | { kind: 'advance'; ms: number }
  /**
   * A client with no key writes to the pending index: the real pause relabelled harmless, made
   * another deployment's, copied under another key, or deleted.
   */
  | { kind: 'forge-pending'; generation: number; how: PendingForgery }
  /** A client with no key lists a question for a generation that never existed. */
  | { kind: 'forge-phantom' }
  /** A client with no key writes a claim into the pause's slot. */
  | { kind: 'forge-claim'; generation: number }
  /** `pending()` read now: everything listed must be waiting. */
  | { kind: 'peek' }
  | { kind: 'settle' }
  // Steps of a bus with processes (the NATS explorer); the memory explorer never generates them.
  | { kind: 'stall-worker'; ms: number }
  | { kind: 'kill-worker' }
  | { kind: 'restart-server' }
  /** A client with no key republishes another generation's signed `completed` event on this one's subject. */
  | { kind: 'forge-event'; generation: number };

export type StepKind = Step['kind'];

export type PendingForgery = 'relabel' | 'audience' | 'misplace' | 'delete';
const PENDING_FORGERIES: readonly PendingForgery[] = ['relabel', 'audience', 'misplace', 'delete'];

export interface ScheduleShape {
  /** Generations the schedule starts. */
  generations: number;
  /** Steps after the starts. */
  steps: number;
  /** Relative weights of each step kind; a kind left out is never chosen. */
  weights: Partial<Record<Exclude<StepKind, 'start'>, number>>;
  /** Deadlines chosen from, in milliseconds (a variant without one never expires). */
  deadlines: readonly number[];
  /** The chance a generation's question expires (default 0.4). */
  expiring?: number;
  /** The chance a harmless expiring question approves on expiry rather than declines (default 0.5). */
  approvingOnExpiry?: number;
}

export interface Schedule {
  seed: number;
  steps: Step[];
}

/** The schedule a seed stands for: the same seed, the same steps, in any process. */
export function generateSchedule(seed: number, shape: ScheduleShape): Schedule {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const chance = (p: number) => random() < p;
  const steps: Step[] = [];
  const kinds = Object.entries(shape.weights) as [Exclude<StepKind, 'start'>, number][];
  const total = kinds.reduce((sum, [, weight]) => sum + weight, 0);
  const chooseKind = () => {
    let roll = random() * total;
    for (const [kind, weight] of kinds) {
      roll -= weight;
      if (roll < 0) return kind;
    }
    return kinds[kinds.length - 1]?.[0] ?? 'settle';
  };
  let started = 0;
  const startOne = () => {
    const dangerous = chance(0.5);
    const expires = chance(shape.expiring ?? 0.4);
    const variant: GenerationVariant = {
      dangerous,
      idempotent: chance(0.3),
      pauses: chance(0.3) ? 2 : 1,
      ...(expires && {
        expiresInMs: pick(shape.deadlines),
        onExpiry: !dangerous && chance(shape.approvingOnExpiry ?? 0.5) ? ('approve' as const) : ('decline' as const),
      }),
    };
    const preempt = expires && chance(0.3);
    steps.push({ kind: 'start', generation: started, variant, ...(preempt && { preemptTimers: true as const }) });
    started += 1;
  };
  for (let index = 0; index < Math.max(1, Math.ceil(shape.generations / 2)); index += 1) startOne();
  for (let index = 0; index < shape.steps; index += 1) {
    if (started < shape.generations && chance(0.25)) startOne();
    const kind = chooseKind();
    const generation = Math.floor(random() * started);
    switch (kind) {
      case 'answer':
      case 'cancel':
        steps.push({ kind, generation, concurrent: chance(0.5) });
        break;
      case 'forge-pending':
        steps.push({ kind, generation, how: pick(PENDING_FORGERIES) });
        break;
      case 'answer-later':
      case 'answer-elsewhere':
      case 'forge-claim':
      case 'forge-event':
        steps.push({ kind, generation });
        break;
      case 'advance':
        steps.push({ kind, ms: pick(shape.deadlines) });
        break;
      case 'stall-worker':
        steps.push({ kind, ms: pick(shape.deadlines) });
        break;
      default:
        steps.push({ kind });
    }
  }
  while (started < shape.generations) startOne();
  return { seed, steps };
}

/** A schedule as one line per step, for a failure's report. */
export function describeSchedule(schedule: Schedule): string {
  return schedule.steps.map((step, index) => `${index}: ${JSON.stringify(step)}`).join('\n');
}
