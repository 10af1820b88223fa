// The fuzzed operations of presets: a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import { CHAT_MODEL, type FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [
  {
    place: 26,
    method: 'POST',
    path: '/api/v1/presets/fuzz/chat/completions',
    key: 'management',
    body: {
      model: CHAT_MODEL,
      messages: [{ role: 'system', content: 'Be brief.' }],
      temperature: 0.5,
      stop: ['x'],
      reasoning: { effort: 'low' },
      provider: { order: ['openai'] },
    },
  },
  {
    place: 27,
    method: 'POST',
    path: '/api/v1/presets/fuzz/messages',
    key: 'management',
    body: {
      model: 'anthropic/claude-sonnet-4',
      messages: [],
      system: [{ type: 'text', text: 'Be brief.' }],
      max_tokens: 64,
      thinking: { type: 'enabled', budget_tokens: 32 },
    },
  },
  {
    place: 28,
    method: 'POST',
    path: '/api/v1/presets/fuzz/responses',
    key: 'management',
    body: { model: CHAT_MODEL, instructions: 'Be brief.', max_output_tokens: 64, reasoning: { effort: 'low', summary: 'auto' } },
  },
  { place: 29, method: 'GET', path: '/api/v1/presets?offset=0&limit=5', key: 'standard' },
  { place: 30, method: 'GET', path: '/api/v1/presets/fuzz', key: 'standard' },
  { place: 31, method: 'GET', path: '/api/v1/presets/fuzz/versions?offset=0&limit=5', key: 'standard' },
  { place: 32, method: 'GET', path: '/api/v1/presets/fuzz/versions/1', key: 'standard' },
]
