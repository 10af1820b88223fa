// The fuzzed operations of the Responses API: a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import { IMG, CHAT_MODEL, type FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [
  { place: 35, method: 'POST', path: '/api/v1/responses', key: 'standard', body: { model: CHAT_MODEL, preset: 'fuzz', input: 'hi', max_output_tokens: 50 } },
  {
    place: 114,
    method: 'POST',
    path: '/api/v1/responses',
    key: 'standard',
    body: {
      model: CHAT_MODEL,
      instructions: 'Be brief.',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'weather in Paris?' },
            { type: 'input_image', image_url: IMG, detail: 'low' },
          ],
        },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '{"sky":"clear"}' },
      ],
      tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
      text: { format: { type: 'json_schema', name: 's', schema: { type: 'object', properties: { a: { type: 'string' } } } } },
      max_output_tokens: 200,
    },
  },
  {
    place: 115,
    method: 'POST',
    path: '/api/v1/responses',
    key: 'standard',
    body: { model: 'openai/o4-mini', input: 'why?', stream: true, reasoning: { effort: 'low', summary: 'auto' }, tool_choice: 'auto' },
  },
  {
    place: 120,
    method: 'POST',
    path: '/api/v1/responses',
    key: 'standard',
    // As Codex CLI streams a turn: function tools, a namespace of functions, and a server tool.
    body: {
      model: CHAT_MODEL,
      input: 'spawn a helper',
      stream: true,
      tools: [
        { type: 'function', name: 'shell', parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } } } },
        {
          type: 'namespace',
          name: 'multi_agent_v1',
          description: 'Sub-agents.',
          tools: [{ type: 'function', name: 'spawn_agent', parameters: { type: 'object', properties: { message: { type: 'string' } } } }],
        },
        { type: 'web_search' },
        { type: 'mcp', server_label: 'docs' },
      ],
      tool_choice: { type: 'function', name: 'spawn_agent' },
    },
  },
  {
    place: 122,
    method: 'POST',
    path: '/api/v1/responses',
    key: 'standard',
    // The server tools run here: a web search (its web_search_call item sent back), the datetime tool.
    body: {
      model: CHAT_MODEL,
      input: [
        { role: 'user', content: 'news about lighthouses?' },
        { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'lighthouses' } },
        { role: 'user', content: 'and now?' },
      ],
      stream: true,
      tools: [
        { type: 'openrouter:web_search', parameters: { max_results: 2 } },
        { type: 'openrouter:datetime', parameters: { timezone: 'Europe/Paris' } },
      ],
    },
  },
]
