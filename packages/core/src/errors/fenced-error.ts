import { InterludeError } from './interlude-error.js';

const marker = Symbol.for('interlude.error.fenced');

/**
 * A run found a slot of its claim log taken by another holder: its lease lapsed (it stalled past
 * the job's ack wait) and another delivery of the job took the run over. It stops where it
 * stands: it publishes nothing more, stores no checkpoint and neither acknowledges nor hands back
 * its job, which the server has already given to its successor.
 */
export class FencedError extends InterludeError {
  readonly [marker] = true;

  constructor(generationId: string, epoch: number) {
    super('fenced', `This run of generation ${generationId} (epoch ${epoch}) was taken over by another worker`);
    this.name = 'FencedError';
  }

  static override isInstance(error: unknown): error is FencedError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
