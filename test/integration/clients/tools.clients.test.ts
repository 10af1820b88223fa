// Every tool type of the real document, on Responses, chat and Messages: a request as Codex CLI streams
// it (function tools, a namespace, web_search) through openai gets a complete stream; each server tool
// type is taken (and not run: no output items of its own this round); a namespace's functions are called
// by their own names with `namespace` on the item; every bad shape is a 400 naming its field (raw HTTP,
// for the exact body; Messages' bad shapes are with its other rules in test/integration/messages).
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { listeningEmulator, testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const MODEL = 'openai/gpt-4o-mini'
const CLAUDE = 'anthropic/claude-sonnet-4'

const SHELL = {
  type: 'function',
  name: 'shell',
  description: 'Runs a shell command and returns its output.',
  parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } }, required: ['command'], additionalProperties: false },
  strict: false,
}

const MULTI_AGENT = {
  type: 'namespace',
  name: 'multi_agent_v1',
  description: 'Tools for spawning and managing sub-agents.',
  tools: [
    {
      type: 'function',
      name: 'spawn_agent',
      description: 'Spawn a sub-agent for a well-scoped task.',
      parameters: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    },
    { type: 'function', name: 'wait_agent', description: 'Wait for a sub-agent.' },
  ],
}

/** A streamed turn as Codex CLI 0.169 sends it: function tools, its multi-agent namespace and web search. */
const CODEX_TURN = {
  model: MODEL,
  instructions: 'You are Codex, a coding agent.',
  input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Reply with one word: hello' }] }],
  tools: [
    SHELL,
    { type: 'function', name: 'update_plan', description: 'Updates the plan.', parameters: { type: 'object', properties: {} } },
    MULTI_AGENT,
    { type: 'web_search' },
  ],
  tool_choice: 'auto',
  parallel_tool_calls: false,
  reasoning: { effort: 'medium', summary: 'auto' },
  store: false,
  stream: true,
  include: ['reasoning.encrypted_content'],
  prompt_cache_key: '0197f3a2-codex-session',
} as const

/** One of each server tool type the real document lists for the Responses request's `tools`, with its required fields. */
const RESPONSES_SERVER_TOOLS = [
  { type: 'web_search' },
  { type: 'web_search_preview', search_context_size: 'low' },
  { type: 'web_search_preview_2025_03_11' },
  { type: 'web_search_2025_08_26', filters: { allowed_domains: ['example.com'] } },
  { type: 'file_search', vector_store_ids: ['vs_1'] },
  { type: 'computer_use_preview', display_width: 1024, display_height: 768, environment: 'browser' },
  { type: 'code_interpreter', container: { type: 'auto' } },
  { type: 'mcp', server_label: 'docs', server_url: 'https://mcp.example.com' },
  { type: 'image_generation' },
  { type: 'local_shell' },
  { type: 'shell' },
  { type: 'apply_patch' },
  { type: 'custom', name: 'apply_patch_freeform', description: 'A patch as text' },
  ...[
    'advisor',
    'apply_patch',
    'bash',
    'datetime',
    'experimental__search_models',
    'files',
    'fusion',
    'image_generation',
    'shell',
    'subagent',
    'tool_search',
    'web_fetch',
    'web_search',
  ].map((name) => ({ type: `openrouter:${name}` })),
]

const CHAT_SERVER_TOOLS = [
  ...['advisor', 'bash', 'datetime', 'experimental__search_models', 'files', 'fusion', 'image_generation', 'subagent', 'web_fetch', 'web_search'].map(
    (name) => ({ type: `openrouter:${name}` }),
  ),
  { type: 'openrouter:web_search', parameters: { max_results: 2 } },
  ...['web_search', 'web_search_preview', 'web_search_preview_2025_03_11', 'web_search_2025_08_26'].map((type) => ({ type })),
]

const MESSAGES_SERVER_TOOLS = [
  { type: 'bash_20250124', name: 'bash' },
  { type: 'text_editor_20250124', name: 'str_replace_editor' },
  { type: 'web_search_20250305', name: 'web_search', max_uses: 2 },
  { type: 'web_search_20260209', name: 'web_search' },
  { type: 'advisor_20260301', name: 'advisor', model: 'anthropic/claude-opus-4' },
  { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' },
  { type: 'tool_search_tool_regex', name: 'tool_search_tool_regex' },
  { type: 'code_execution_20250825', name: 'code_execution' },
  { type: 'memory_20250818', name: 'memory' },
  ...['bash', 'datetime', 'image_generation', 'experimental__search_models', 'web_fetch', 'web_search', 'shell', 'tool_search'].map((name) => ({
    type: `openrouter:${name}`,
  })),
]

async function openai() {
  const emu = await listeningEmulator()
  return { emu, client: new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 }) }
}

const totalUsage = async (emu: TestEmulator): Promise<number> => (await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage

describe('Responses: every tool type', () => {
  it('streams a whole turn to a request as Codex CLI sends it (function tools, a namespace, web_search)', async () => {
    const { client } = await openai()
    const stream = await client.responses.create(CODEX_TURN as unknown as OpenAI.Responses.ResponseCreateParamsStreaming)
    const types: string[] = []
    let completed: OpenAI.Responses.Response | undefined
    for await (const event of stream) {
      types.push(event.type)
      if (event.type === 'response.completed') completed = event.response
    }
    expect(types[0]).toBe('response.created')
    expect(types.at(-1)).toBe('response.completed')
    expect(completed!.status).toBe('completed')
    expect(completed!.output.length).toBeGreaterThan(0)
    // Of the server tools only the web search runs (emulated): its web_search_call item, no other.
    expect(completed!.output.map((item) => item.type).filter((type) => !['reasoning', 'message', 'function_call'].includes(type))).toEqual(['web_search_call'])
    // The tools are echoed: functions as functions, the others as sent.
    expect(completed!.tools.map((tool) => tool.type)).toEqual(['function', 'function', 'namespace', 'web_search'])
  })

  it('takes each server tool type of the real document, beside a function, and with tool_choice none calls none of them', async () => {
    const { emu, client } = await openai()
    const response = await client.responses.create({
      model: MODEL,
      input: 'Tell me about lighthouses',
      tools: [...RESPONSES_SERVER_TOOLS, SHELL] as unknown as OpenAI.Responses.Tool[],
      tool_choice: 'none',
    })
    expect(response.status).toBe('completed')
    expect(response.output.map((item) => item.type)).toEqual(['message'])
    expect(response.output_text).toMatch(/lighthouses/)
    expect(await totalUsage(emu)).toBeGreaterThan(0)
  })

  it("calls a namespace's function by its own name, the item naming its namespace, and takes the call back next turn", async () => {
    const { client } = await openai()
    const request = {
      model: MODEL,
      input: 'Start a helper to read the README',
      tools: [SHELL, MULTI_AGENT] as unknown as OpenAI.Responses.Tool[],
      tool_choice: { type: 'function', name: 'spawn_agent' } as const,
    }
    const response = await client.responses.create(request)
    const call = response.output.find((item) => item.type === 'function_call')!
    expect(call).toMatchObject({ type: 'function_call', name: 'spawn_agent', namespace: 'multi_agent_v1', status: 'completed' })
    expect(JSON.parse((call as OpenAI.Responses.ResponseFunctionToolCall).arguments)).toEqual({ message: expect.any(String) })

    // The same call streamed: its added and done items name the namespace too.
    const stream = await client.responses.create({ ...request, stream: true })
    const items: Array<Record<string, unknown>> = []
    for await (const event of stream)
      if (event.type === 'response.output_item.added' || event.type === 'response.output_item.done') items.push(event.item as never)
    expect(items.filter((item) => item.type === 'function_call').map((item) => item.namespace)).toEqual(['multi_agent_v1', 'multi_agent_v1'])

    // The next turn carries the call (with its namespace) and its output back.
    const next = await client.responses.create({
      model: MODEL,
      tools: request.tools,
      input: [
        { role: 'user', content: request.input },
        call as OpenAI.Responses.ResponseFunctionToolCall,
        { type: 'function_call_output', call_id: (call as OpenAI.Responses.ResponseFunctionToolCall).call_id, output: 'agent-1 started' },
      ],
    })
    expect(next.status).toBe('completed')
  })

  it("takes tool_choice's other forms: a server tool by type (the search, then a text answer), allowed_tools (only those called)", async () => {
    const { client } = await openai()
    const hosted = await client.responses.create({
      model: MODEL,
      input: 'Search the web for lighthouses',
      tools: [{ type: 'web_search_preview' }, SHELL] as unknown as OpenAI.Responses.Tool[],
      tool_choice: { type: 'web_search_preview' },
    })
    expect(hosted.output.map((item) => item.type)).toEqual(['web_search_call', 'message'])
    const allowed = await client.responses.create({
      model: MODEL,
      input: 'Run a shell command',
      tools: [SHELL, MULTI_AGENT] as unknown as OpenAI.Responses.Tool[],
      tool_choice: { type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'wait_agent' }] },
    })
    const calls = allowed.output.filter((item) => item.type === 'function_call')
    expect(calls.map((call) => [call.name, (call as { namespace?: string }).namespace])).toEqual([['wait_agent', 'multi_agent_v1']])
  })

  it.each<[string, unknown, string, string]>([
    ['a server tool the request lacks', { type: 'shell' }, 'tool_choice.type', "names shell, which is not among the request's `tools`"],
    [
      'allowed_tools without a mode',
      { type: 'allowed_tools', tools: [{ type: 'function', name: 'shell' }] },
      'tool_choice.mode',
      'must be one of auto, required',
    ],
    [
      'allowed_tools without tools',
      { type: 'allowed_tools', mode: 'auto' },
      'tool_choice.tools',
      'is required: an array of tools, e.g. {"type": "function", "name": "..."}',
    ],
    ['allowed_tools with none', { type: 'allowed_tools', mode: 'auto', tools: [] }, 'tool_choice.tools', 'must not be empty'],
    [
      'allowed_tools naming an unknown function',
      { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'get_time' }] },
      'tool_choice.tools[0].name',
      "must name one of the request's function `tools`",
    ],
  ])('refuses tool_choice: %s, naming the field', async (_name, toolChoice, field, issue) => {
    const emu = await testEmulator()
    const res = await emu.send('POST', '/api/v1/responses', { model: MODEL, input: 'x', tools: [SHELL], tool_choice: toolChoice }, emu.keys.standard)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: { code: 400, message: `Field \`${field}\` ${issue}`, metadata: { field, location: 'body', issue } } })
    expect(await totalUsage(emu)).toBe(0)
  })

  it('refuses a function of a namespace whose parameters are no schema, naming its place', async () => {
    const emu = await testEmulator()
    const tools = [{ ...MULTI_AGENT, tools: [{ type: 'function', name: 'spawn_agent', parameters: { type: 'banana' } }] }]
    const res = await emu.send('POST', '/api/v1/responses', { model: MODEL, input: 'x', tools }, emu.keys.standard)
    expect(res.status).toBe(400)
    expect(res.body.error.metadata).toMatchObject({ field: 'tools[0].tools[0].parameters', location: 'body' })
  })

  it.each<[string, unknown[], string, string]>([
    [
      'an unknown type',
      [{ type: 'retrieval' }],
      'tools[0].type',
      'must be one of function, custom, namespace, web_search, web_search_preview, web_search_preview_2025_03_11, web_search_2025_08_26, file_search, computer_use_preview, code_interpreter, mcp, image_generation, local_shell, shell, apply_patch, openrouter:advisor, openrouter:apply_patch, openrouter:bash, openrouter:datetime, openrouter:experimental__search_models, openrouter:files, openrouter:fusion, openrouter:image_generation, openrouter:shell, openrouter:subagent, openrouter:tool_search, openrouter:web_fetch, openrouter:web_search',
    ],
    ['file_search without vector stores', [{ type: 'file_search' }], 'tools[0].vector_store_ids', 'is required: an array of vector store ids'],
    [
      'computer use without a display width',
      [{ type: 'computer_use_preview', display_height: 768, environment: 'browser' }],
      'tools[0].display_width',
      'is required: a positive integer',
    ],
    [
      'computer use in an unknown environment',
      [{ type: 'computer_use_preview', display_width: 1024, display_height: 768, environment: 'amiga' }],
      'tools[0].environment',
      'is required: one of windows, mac, linux, ubuntu, browser',
    ],
    ['code_interpreter without a container', [{ type: 'code_interpreter' }], 'tools[0].container', 'is required: a container id, or {"type": "auto"}'],
    ['mcp without a server label', [{ type: 'mcp', server_url: 'https://x' }], 'tools[0].server_label', 'is required: a non-empty string'],
    ['a custom tool without a name', [{ type: 'custom' }], 'tools[0].name', 'must be 1 to 64 letters, digits, _ or -'],
    ['a namespace without a name', [{ ...MULTI_AGENT, name: undefined }], 'tools[0].name', 'must be 1 to 64 letters, digits, _ or -'],
    ['a namespace without a description', [{ ...MULTI_AGENT, description: undefined }], 'tools[0].description', 'is required: a string'],
    ['a namespace without tools', [{ ...MULTI_AGENT, tools: undefined }], 'tools[0].tools', 'is required: an array of function and custom tools'],
    ['a namespace holding a server tool', [{ ...MULTI_AGENT, tools: [{ type: 'web_search' }] }], 'tools[0].tools[0].type', 'must be one of function, custom'],
    ['a namespace holding a string', [{ ...MULTI_AGENT, tools: ['spawn_agent'] }], 'tools[0].tools[0]', 'must be an object'],
    [
      "a namespace's function named like another tool",
      [{ ...SHELL, name: 'spawn_agent' }, MULTI_AGENT],
      'tools[1].tools[0].name',
      'repeats the name spawn_agent',
    ],
  ])('refuses %s, naming the field', async (_name, tools, field, issue) => {
    const emu = await testEmulator()
    const res = await emu.send('POST', '/api/v1/responses', { model: MODEL, input: 'x', tools }, emu.keys.standard)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      error: { code: 400, message: `Field \`${field}\` ${issue}`, metadata: { field, location: 'body', issue } },
    })
    expect(await totalUsage(emu)).toBe(0)
  })
})

describe('chat: every tool type', () => {
  it("takes each of the gateway's server tools and the web search shorthand beside a function, and calls the function", async () => {
    const { client } = await openai()
    const weather = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }
    const completion = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
      tools: [...CHAT_SERVER_TOOLS, weather] as unknown as OpenAI.Chat.ChatCompletionTool[],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    })
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls')
    expect(completion.choices[0]!.message.tool_calls![0]).toMatchObject({ type: 'function', function: { name: 'get_weather' } })
  })

  it('names the place of a function after server tools when its parameters cannot be used', async () => {
    const emu = await testEmulator()
    const tools = [{ type: 'openrouter:datetime' }, { type: 'function', function: { name: 'f', parameters: { type: 'banana' } } }]
    const res = await emu.send('POST', '/api/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'x' }], tools }, emu.keys.standard)
    expect(res.status).toBe(400)
    expect(res.body.error.metadata).toMatchObject({ field: 'tools[1].function.parameters' })
  })

  it('refuses a tool type chat does not take (a Responses-only one), listing those it takes', async () => {
    const emu = await testEmulator()
    const res = await emu.send(
      'POST',
      '/api/v1/chat/completions',
      { model: MODEL, messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'local_shell' }] },
      emu.keys.standard,
    )
    const issue =
      'must be one of function, openrouter:advisor, openrouter:bash, openrouter:datetime, openrouter:experimental__search_models, openrouter:files, openrouter:fusion, openrouter:image_generation, openrouter:subagent, openrouter:web_fetch, openrouter:web_search, web_search, web_search_preview, web_search_preview_2025_03_11, web_search_2025_08_26'
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      error: { code: 400, message: `Field \`tools[0].type\` ${issue}`, metadata: { field: 'tools[0].type', location: 'body', issue } },
    })
  })
})

describe('Messages: every tool type', () => {
  const ask = (tools: unknown[]) => ({
    model: CLAUDE,
    max_tokens: 256,
    messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
    tools,
  })
  const weather = { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }

  it("takes Anthropic's server tools and the gateway's beside a custom tool, and calls the custom tool", async () => {
    const emu = await testEmulator()
    const res = await emu.send('POST', '/api/v1/messages', { ...ask([...MESSAGES_SERVER_TOOLS, weather]), tool_choice: { type: 'any' } }, emu.keys.standard)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.stop_reason).toBe('tool_use')
    expect(res.body.content.at(-1)).toMatchObject({ type: 'tool_use', name: 'get_weather' })
  })
})
