import { InterludeError } from './interlude-error.js';

const marker = Symbol.for('interlude.error.unsupported_provider');

/**
 * A provider ran a tool on its own (`ModelRequest.executeTool`, instead of returning the call in
 * `ModelResponse.toolCalls` for the generation to run) and met something only the generation loop
 * can handle: an input request or a gated tool. Raised before a gated tool runs, so nothing is
 * half done.
 */
export class UnsupportedProviderError extends InterludeError {
  readonly [marker] = true;

  constructor(message: string) {
    super('unsupported_provider', message);
    this.name = 'UnsupportedProviderError';
  }

  static override isInstance(error: unknown): error is UnsupportedProviderError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
