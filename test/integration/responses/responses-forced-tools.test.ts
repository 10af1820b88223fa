// Tools forced by `tool_choice` on Responses, through the official `openai` client: the answer is the tool's
// call item, made up from the question's key words and never run. Client-run tools (local_shell, shell,
// apply_patch, computer_use_preview) give a call for the client to run (and its `*_output` sent back is
// accepted); provider-run ones (code_interpreter, file_search) a completed call with made-up outputs before
// the message, counted in `usage.server_tool_use_details`. Not forced, the same tools leave the answer text.
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { listeningEmulator } from '../../helpers/emulator.ts'

const INPUT = 'List the lighthouse keepers please'
const MODEL = 'openai/gpt-4o'

type Item = Record<string, unknown> & { type: string; id: string; status: string }

const details = (response: OpenAI.Responses.Response) =>
  (response.usage as unknown as { server_tool_use_details?: Record<string, number> }).server_tool_use_details

async function client() {
  const emu = await listeningEmulator()
  return { emu, openai: new OpenAI({ baseURL: `${emu.url}/api/v1`, apiKey: emu.keys.standard, maxRetries: 0 }) }
}

const create = (openai: OpenAI, body: Record<string, unknown>) =>
  openai.responses.create({ model: MODEL, input: INPUT, ...body } as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming)

/** The stream's event types and its completed response. */
async function streamed(openai: OpenAI, body: Record<string, unknown>) {
  const stream = await openai.responses.create({
    model: MODEL,
    input: INPUT,
    ...body,
    stream: true,
  } as unknown as OpenAI.Responses.ResponseCreateParamsStreaming)
  const types: string[] = []
  let completed: OpenAI.Responses.Response | null = null
  for await (const event of stream) {
    types.push(event.type)
    if (event.type === 'response.completed') completed = event.response
  }
  return { types, completed: completed! }
}

const COMPUTER = { type: 'computer_use_preview', display_width: 1024, display_height: 768, environment: 'linux' }

describe('Responses tools forced by tool_choice', () => {
  it('client-run tools answer with their call item for the client to run, and the next turn sending its output back is a 200', async () => {
    const { openai } = await client()
    const cases = [
      {
        tool: { type: 'local_shell' },
        itemType: 'local_shell_call',
        check: (item: Item) =>
          expect(item.action).toEqual({
            type: 'exec',
            command: ['echo', 'List lighthouse keepers please'],
            env: {},
            timeout_ms: null,
            user: null,
            working_directory: null,
          }),
        output: (item: Item) => ({ type: 'local_shell_call_output', id: item.id, call_id: item.call_id, output: 'List lighthouse keepers please\n' }),
      },
      {
        tool: { type: 'shell' },
        itemType: 'shell_call',
        check: (item: Item) => expect(item.action).toEqual({ commands: ['echo List lighthouse keepers please'], max_output_length: null, timeout_ms: null }),
        output: (item: Item) => ({
          type: 'shell_call_output',
          call_id: item.call_id,
          output: [{ stdout: 'List lighthouse keepers please\n', stderr: '', outcome: { type: 'exit', exit_code: 0 } }],
        }),
      },
      {
        tool: { type: 'apply_patch' },
        itemType: 'apply_patch_call',
        check: (item: Item) =>
          expect(item.operation).toEqual({ type: 'create_file', path: 'notes.md', diff: '@@\n+# Notes\n+List lighthouse keepers please\n' }),
        output: (item: Item) => ({ type: 'apply_patch_call_output', call_id: item.call_id, status: 'completed', output: 'Created notes.md' }),
      },
      {
        tool: COMPUTER,
        itemType: 'computer_call',
        check: (item: Item) => {
          expect(item.action).toEqual({ type: 'screenshot' })
          expect(item.pending_safety_checks).toEqual([])
        },
        output: (item: Item) => ({
          type: 'computer_call_output',
          call_id: item.call_id,
          output: { type: 'computer_screenshot', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
        }),
      },
    ]
    for (const { tool, itemType, check, output } of cases) {
      const body = { tools: [tool], tool_choice: { type: tool.type } }
      const response = await create(openai, body)
      expect(response.status).toBe('completed')
      expect(response.output.map((item) => item.type)).toEqual([itemType])
      const item = response.output[0] as unknown as Item
      expect(item.status).toBe('completed')
      expect(item.call_id).toMatch(/^call_/)
      check(item)
      expect(details(response)).toBeUndefined()
      // Deterministic: the same request gives the same call.
      const again = await create(openai, body)
      expect({ ...again.output[0], id: '', call_id: '' }).toEqual({ ...item, id: '', call_id: '' })

      const next = await create(openai, { tools: [tool], input: [{ role: 'user', content: INPUT }, item, output(item)] })
      expect(next.status).toBe('completed')
    }
  })

  it('code_interpreter forced: a completed call with its made-up code and logs before the message, counted as a server tool call', async () => {
    const { openai } = await client()
    const body = { tools: [{ type: 'code_interpreter', container: { type: 'auto' } }], tool_choice: { type: 'code_interpreter' } }
    const response = await create(openai, body)
    expect(response.output.map((item) => item.type)).toEqual(['code_interpreter_call', 'message'])
    const call = response.output[0] as OpenAI.Responses.ResponseCodeInterpreterToolCall
    expect(call.id).toMatch(/^ci_[0-9a-f]{32}$/)
    expect(call.status).toBe('completed')
    expect(call.code).toBe('print("List lighthouse keepers please")')
    expect(call.outputs).toEqual([{ type: 'logs', logs: 'List lighthouse keepers please\n' }])
    expect(call.container_id).toMatch(/^cntr_/)
    expect(details(response)).toEqual({ tool_calls_requested: 1, tool_calls_executed: 1 })

    const { types, completed } = await streamed(openai, body)
    const first = types.indexOf('response.output_item.added')
    const calls = types.slice(first, types.indexOf('response.output_item.done') + 1).filter((t) => !t.endsWith('code.delta'))
    expect(calls).toEqual([
      'response.output_item.added',
      'response.code_interpreter_call.in_progress',
      'response.code_interpreter_call_code.done',
      'response.code_interpreter_call.interpreting',
      'response.code_interpreter_call.completed',
      'response.output_item.done',
    ])
    expect(types).toContain('response.code_interpreter_call_code.delta')
    expect({ ...completed.output[0], id: '' }).toEqual({ ...call, id: '', container_id: (completed.output[0] as typeof call).container_id })

    const next = await create(openai, { input: [{ role: 'user', content: INPUT }, ...response.output, { role: 'user', content: 'Thanks' }] })
    expect(next.status).toBe('completed')
  })

  it('file_search forced: the question as its query, a made-up result only when include asks for results', async () => {
    const { openai } = await client()
    const tools = [{ type: 'file_search', vector_store_ids: ['vs_1'] }]
    const response = await create(openai, { tools, tool_choice: { type: 'file_search' } })
    expect(response.output.map((item) => item.type)).toEqual(['file_search_call', 'message'])
    const call = response.output[0] as OpenAI.Responses.ResponseFileSearchToolCall
    expect(call.status).toBe('completed')
    expect(call.queries).toEqual([INPUT])
    expect(call.results).toBeNull()
    expect(details(response)).toEqual({ tool_calls_requested: 1, tool_calls_executed: 1 })

    const withResults = await create(openai, { tools, tool_choice: { type: 'file_search' }, include: ['file_search_call.results'] })
    const results = (withResults.output[0] as OpenAI.Responses.ResponseFileSearchToolCall).results!
    expect(results).toHaveLength(1)
    expect(results[0]).toMatchObject({ filename: 'list.md', text: 'Notes on List lighthouse keepers please.' })
    expect(results[0]!.score).toBeGreaterThanOrEqual(0.5)

    const { types } = await streamed(openai, { tools, tool_choice: { type: 'file_search' } })
    const first = types.indexOf('response.output_item.added')
    expect(types.slice(first, first + 2)).toEqual(['response.output_item.added', 'response.output_item.done'])
  })

  it('apply_patch streamed: its diff in delta events, the item ending as the whole response holds it', async () => {
    const { openai } = await client()
    const body = { tools: [{ type: 'apply_patch' }], tool_choice: { type: 'apply_patch' } }
    const whole = await create(openai, body)
    const { types, completed } = await streamed(openai, body)
    const calls = types.filter((t) => t !== 'response.apply_patch_call_operation_diff.delta')
    expect(calls.slice(2)).toEqual([
      'response.output_item.added',
      'response.apply_patch_call_operation_diff.done',
      'response.output_item.done',
      'response.completed',
    ])
    expect(types).toContain('response.apply_patch_call_operation_diff.delta')
    expect({ ...completed.output[0], id: '', call_id: '' }).toEqual({ ...whole.output[0], id: '', call_id: '' })
  })

  it('not forced, the same tools leave the answer a text message; a forced type the request does not list is a 400 naming the field', async () => {
    const { emu, openai } = await client()
    const plain = await create(openai, { tools: [{ type: 'local_shell' }, { type: 'code_interpreter', container: { type: 'auto' } }] })
    expect(plain.output.map((item) => item.type)).toEqual(['message'])
    expect(details(plain)).toBeUndefined()

    const bad = await emu.send(
      'POST',
      '/api/v1/responses',
      { model: MODEL, input: INPUT, tools: [{ type: 'shell' }], tool_choice: { type: 'local_shell' } },
      emu.keys.standard,
    )
    expect(bad.status).toBe(400)
    expect(bad.body.error.metadata.field).toBe('tool_choice.type')

    const noCall = await emu.send(
      'POST',
      '/api/v1/responses',
      {
        model: MODEL,
        input: [
          { role: 'user', content: INPUT },
          { type: 'computer_call_output', output: {} },
        ],
      },
      emu.keys.standard,
    )
    expect(noCall.status).toBe(400)
    expect(noCall.body.error.metadata.field).toBe('input[1].call_id')
  })
})
