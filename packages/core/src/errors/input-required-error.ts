import type { InputRequestJSON } from '../input-request/input-request.js';
import { InterludeError } from './interlude-error.js';

const marker = Symbol.for('interlude.error.input_required');

/** A delegated agent asked a question and its delegation was told to raise rather than answer the model. */
export class InputRequiredError extends InterludeError {
  readonly [marker] = true;
  readonly toolName: string;
  readonly questions: InputRequestJSON[];

  constructor(toolName: string, questions: InputRequestJSON[]) {
    const asked = questions.map((question) => `${question.tool_name ?? 'a tool'} asks "${question.prompt}"`).join('; ');
    super('input_required', `${toolName} needs input it cannot ask for from here: ${asked}`);
    this.name = 'InputRequiredError';
    this.toolName = toolName;
    this.questions = questions;
  }

  static override isInstance(error: unknown): error is InputRequiredError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
