import { openaiFixtures } from '../testing/openai-fixtures.js';
import { describeGenerationFailures } from '../testing/openai-generation-failures.js';
import { openaiResponses } from './openai-responses-adapter.js';

describeGenerationFailures({
  name: 'openaiResponses',
  provider: 'openai.responses',
  label: 'OpenAI Responses',
  path: '/v1/responses',
  fixtures: openaiFixtures(new URL('./__fixtures__/', import.meta.url), 'responses'),
  // Through a few text deltas: no response.completed event.
  truncateAfter: 8,
  createAdapter: (baseURL, maxRetries) => openaiResponses({ model: 'gpt-5', baseURL, apiKey: 'test', maxRetries }),
});
