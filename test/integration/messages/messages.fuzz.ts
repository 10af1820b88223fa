// The fuzzed operations of the Anthropic Messages API: a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import { CHAT_MODEL, type FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [
  {
    place: 34,
    method: 'POST',
    path: '/api/v1/messages',
    key: 'standard',
    body: { model: `${CHAT_MODEL}@preset/fuzz`, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] },
  },
  {
    place: 116,
    method: 'POST',
    path: '/api/v1/messages',
    key: 'standard',
    body: {
      model: 'anthropic/claude-sonnet-4',
      max_tokens: 200,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'weather in Paris?' },
            { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'clear' }] }] },
      ],
      tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
      thinking: { type: 'enabled', budget_tokens: 64 },
    },
  },
  {
    place: 117,
    method: 'POST',
    path: '/api/v1/messages',
    key: 'standard',
    body: {
      model: 'anthropic/claude-sonnet-4',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'weather?' }],
      stream: true,
      stop_sequences: ['.'],
      tool_choice: { type: 'auto' },
    },
  },
  {
    place: 123,
    method: 'POST',
    path: '/api/v1/messages',
    key: 'standard',
    // Anthropic's web search tool and the gateway's datetime: the search blocks, citations and the time.
    body: {
      model: 'anthropic/claude-sonnet-4',
      max_tokens: 200,
      messages: [{ role: 'user', content: 'news about lighthouses?' }],
      stream: true,
      tools: [
        { type: 'web_search_20250305', name: 'web_search', max_uses: 2 },
        { type: 'openrouter:datetime', parameters: { timezone: 'UTC' } },
      ],
    },
  },
]
