import { openaiFixtures } from '../testing/openai-fixtures.js';
import { describeGenerationFailures } from '../testing/openai-generation-failures.js';
import { openaiChat } from './openai-chat-adapter.js';

describeGenerationFailures({
  name: 'openaiChat',
  provider: 'openai.chat',
  label: 'OpenAI Chat Completions',
  path: '/v1/chat/completions',
  fixtures: openaiFixtures(new URL('./__fixtures__/', import.meta.url), 'chat'),
  // Role and two words of text: no finish_reason, no [DONE].
  truncateAfter: 3,
  createAdapter: (baseURL, maxRetries) => openaiChat({ model: 'gpt-4.1', baseURL, apiKey: 'test', maxRetries }),
});
