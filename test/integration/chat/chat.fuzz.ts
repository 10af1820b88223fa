// The fuzzed operations of chat, text completions and chat fixtures: a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import { CHAT_MODEL, CHAT_TOOL, type FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [
  {
    place: 33,
    method: 'POST',
    path: '/api/v1/chat/completions',
    key: 'standard',
    body: { model: '@preset/fuzz', messages: [{ role: 'user', content: 'hi' }], max_tokens: 50 },
  },
  {
    place: 66,
    method: 'POST',
    path: '/api/v1/chat/completions',
    key: 'standard',
    body: { model: 'openai/gpt-image-1', messages: [{ role: 'user', content: 'p' }], modalities: ['image'], image_config: { aspect_ratio: '3:2' } },
  },
  {
    place: 111,
    method: 'POST',
    path: '/api/v1/chat/completions',
    key: 'standard',
    body: {
      model: CHAT_MODEL,
      messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
      n: 2,
      max_tokens: 200,
      response_format: { type: 'json_schema', json_schema: { name: 's', schema: { type: 'object', properties: { a: { type: 'string' } } } } },
    },
  },
  {
    place: 112,
    method: 'POST',
    path: '/api/v1/chat/completions',
    key: 'standard',
    body: { model: CHAT_MODEL, messages: [{ role: 'user', content: 'weather please' }], stream: true, tools: [CHAT_TOOL], tool_choice: 'required' },
  },
  { place: 113, method: 'POST', path: '/api/v1/completions', key: 'standard', body: { model: CHAT_MODEL, prompt: 'Once upon a time', stream: true, n: 3 } },
  {
    place: 118,
    method: 'POST',
    path: '/_emulator/api/accounts/{account}/chat-fixtures',
    body: { match: { last_user_regex: 'order #\\d+' }, answer: { content: 'fixed' }, times: 2 },
  },
  {
    place: 119,
    method: 'POST',
    path: '/_emulator/api/accounts/{account}/chat-fixtures/test',
    body: { model: CHAT_MODEL, messages: [{ role: 'user', content: 'order #12' }] },
  },
  {
    place: 121,
    method: 'POST',
    path: '/api/v1/chat/completions',
    key: 'standard',
    body: {
      model: CHAT_MODEL,
      messages: [{ role: 'user', content: 'weather please' }],
      tools: [{ type: 'openrouter:web_search', parameters: { max_results: 2 } }, { type: 'openrouter:datetime' }, CHAT_TOOL],
    },
  },
  {
    place: 124,
    method: 'POST',
    path: '/api/v1/chat/completions',
    key: 'standard',
    body: {
      model: CHAT_MODEL,
      messages: [
        { role: 'system', content: 'brief' },
        { role: 'user', content: 'a long story' },
        { role: 'user', content: 'JSON please' },
      ],
      response_format: { type: 'json_object' },
      plugins: [{ id: 'context-compression', engine: 'middle-out' }, { id: 'response-healing' }, { id: 'file-parser', pdf: { engine: 'native' } }],
    },
  },
]
