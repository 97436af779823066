// `@interlude/core/provider`: the spec a model adapter implements (see `provider/provider-adapter.ts`),
// and the errors an adapter throws. Stable, like the root.
export { ProviderError, type ProviderErrorOptions } from './errors/provider-error.js';
export { UnsupportedProviderError } from './errors/unsupported-provider-error.js';
export type {
  FinishReason,
  JsonSchema,
  ModelCallOptions,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
  ProviderAdapter,
  ProviderMessage,
  RequestParameters,
  ToolCall,
  ToolChoice,
  ToolResultMessage,
  ToolSpec,
  Usage,
} from './provider/provider-adapter.js';
