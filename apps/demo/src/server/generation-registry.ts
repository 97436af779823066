import type { Bus, GenerationEvent, PendingGeneration, Subscription } from '@interlude/core';
import { type ListedQuestion, questionsOf } from './pending-questions.js';

export type GenerationStatus =
  | 'queued'
  | 'running'
  | 'awaiting_input'
  | 'completed'
  | 'failed'
  | 'tool_turns_exceeded'
  | 'cancelled';

/** Generation summaries kept; past it the oldest finished ones are forgotten first. */
export const MAX_SUMMARIES = 1_000;
const OPEN: ReadonlySet<GenerationStatus> = new Set(['queued', 'running', 'awaiting_input']);

/** What the desk knows about one generation, built only from its bus events. */
export interface GenerationSummary {
  generationId: string;
  agent: string;
  action: string;
  ticketId: number | undefined;
  status: GenerationStatus;
  text?: string;
  error?: string;
  pending: ListedQuestion[];
  updatedAt: string;
}

/**
 * Follows every transition on the bus and keeps a summary per generation: its status, final
 * answer and open questions. It holds nothing the events do not carry, so it works the same for
 * generations run by this process, its worker, or another process on the same NATS.
 */
export class GenerationRegistry {
  readonly #generations = new Map<string, GenerationSummary>();
  #subscription: Subscription | undefined;

  async follow(bus: Bus): Promise<void> {
    this.#subscription = await bus.subscribe({}, (event) => this.apply(event));
  }

  async stop(): Promise<void> {
    await this.#subscription?.unsubscribe();
  }

  /** Generations not finished yet (queued, running or waiting for a person), of one ticket or all. */
  openCount(ticketId?: number): number {
    let count = 0;
    for (const summary of this.#generations.values()) {
      if (OPEN.has(summary.status) && (ticketId === undefined || summary.ticketId === ticketId)) count += 1;
    }
    return count;
  }

  /** Records a generation the desk has just queued, before its first event arrives. */
  expect(generationId: string, agent: string, action: string, ticketId: number): void {
    this.#remember(generationId, {
      generationId,
      agent,
      action,
      ticketId,
      status: 'queued',
      pending: [],
      updatedAt: new Date().toISOString(),
    });
  }

  apply(event: GenerationEvent): void {
    const summary = this.#summaryFor(event);
    summary.updatedAt = event.time;
    if (event.event === 'started') {
      summary.ticketId ??= ticketIdIn(event.data.messages);
      summary.status = 'running';
    } else if (event.event === 'input_requested') {
      summary.status = 'awaiting_input';
      summary.pending = event.data.input_requests.map((request) => ({
        generationId: event.generation_id,
        agent: event.agent,
        toolCallId: request.tool_call_id ?? '',
        toolName: request.tool_name ?? '',
        kind: request.kind,
        prompt: request.prompt,
        ...(request.options !== undefined && { options: request.options }),
        ...(request.arguments !== undefined && { arguments: request.arguments }),
        approval: request.metadata?.['approval'] === true,
        askedAt: event.time,
        ...(request.expires_at !== undefined && { expiresAt: request.expires_at }),
      }));
    } else if (event.event === 'resumed' || event.event === 'input_expired') {
      summary.status = 'running';
      summary.pending = [];
    } else if (event.event === 'completed') {
      summary.status = 'completed';
      summary.text = event.data.text;
    } else if (event.event === 'failed') {
      summary.status = 'failed';
      summary.error = event.data.error.message;
      summary.pending = [];
    } else if (event.event === 'tool_turns_exceeded') {
      summary.status = 'tool_turns_exceeded';
    } else if (event.event === 'cancelled') {
      summary.status = 'cancelled';
      summary.text = `Cancelled: ${event.data.reason}`;
      summary.pending = [];
    }
  }

  /**
   * Adds the generations still waiting that this registry never heard of (asked before the desk
   * started, on NATS), from the bus's pending list, so the page can open them.
   */
  seed(waiting: readonly PendingGeneration[]): void {
    for (const generation of waiting) {
      if (this.#generations.has(generation.generationId)) continue;
      this.#remember(generation.generationId, {
        generationId: generation.generationId,
        agent: generation.agent,
        action: generation.action,
        ticketId: undefined,
        status: 'awaiting_input',
        pending: questionsOf(generation),
        updatedAt: generation.askedAt.toISOString(),
      });
    }
  }

  get(generationId: string): GenerationSummary | undefined {
    return this.#generations.get(generationId);
  }

  /** Every generation, most recently changed first. */
  list(): GenerationSummary[] {
    return [...this.#generations.values()].sort((left, right) => right.updatedAt.localeCompare(left.updatedAt));
  }

  #summaryFor(event: GenerationEvent): GenerationSummary {
    let summary = this.#generations.get(event.generation_id);
    if (summary === undefined) {
      summary = {
        generationId: event.generation_id,
        agent: event.agent,
        action: event.action,
        ticketId: undefined,
        status: 'running',
        pending: [],
        updatedAt: event.time,
      };
      this.#remember(event.generation_id, summary);
    }
    return summary;
  }

  /** Keeps a summary, forgetting the oldest finished ones (then the oldest at all) past MAX_SUMMARIES. */
  #remember(generationId: string, summary: GenerationSummary): void {
    this.#generations.set(generationId, summary);
    if (this.#generations.size <= MAX_SUMMARIES) return;
    for (const [candidate, kept] of this.#generations) {
      if (!OPEN.has(kept.status)) {
        this.#generations.delete(candidate);
        return;
      }
    }
    this.#generations.delete(this.#generations.keys().next().value as string);
  }
}

function ticketIdIn(messages: unknown): number | undefined {
  const match = /ticket #(\d+)/.exec(JSON.stringify(messages));
  return match ? Number(match[1]) : undefined;
}
