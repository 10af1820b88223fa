// Anthropic-defined tools forced by `tool_choice: {type: "tool", name}` on Messages, through
// @anthropic-ai/sdk: bash, a text editor and computer answer with a tool_use block for the client to run
// (made up from the question's key words, never run), and the next turn's tool_result is a 200;
// code_execution_20250825 gives a server_tool_use (bash_code_execution) and its made-up result before the text.
import Anthropic from '@anthropic-ai/sdk'
import { describe, expect, it } from 'vitest'
import { listeningEmulator } from '../../helpers/emulator.ts'

const MODEL = 'anthropic/claude-sonnet-4'
const QUESTION = 'List the lighthouse keepers please'
const WORDS = 'List lighthouse keepers please'

async function client() {
  const emu = await listeningEmulator()
  return { emu, anthropic: new Anthropic({ baseURL: `${emu.url}/api`, apiKey: emu.keys.standard, maxRetries: 0 }) }
}

type Body = Anthropic.MessageCreateParamsNonStreaming

const bodyOf = (tool: Record<string, unknown>, name: string): Body =>
  ({ model: MODEL, max_tokens: 1024, messages: [{ role: 'user', content: QUESTION }], tools: [tool], tool_choice: { type: 'tool', name } }) as unknown as Body

describe('Messages tools forced by tool_choice', () => {
  it('bash, text editor and computer answer with a tool_use of made-up input; the tool_result sent back is a 200', async () => {
    const { anthropic } = await client()
    const cases: Array<[Record<string, unknown>, string, Record<string, unknown>]> = [
      [{ type: 'bash_20250124', name: 'bash' }, 'bash', { command: `echo ${WORDS}` }],
      [
        { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' },
        'str_replace_based_edit_tool',
        { command: 'create', path: 'notes.md', file_text: `# Notes\n${WORDS}\n` },
      ],
      [{ type: 'computer_20250124', name: 'computer', display_width_px: 1024, display_height_px: 768 }, 'computer', { action: 'screenshot' }],
    ]
    for (const [tool, name, input] of cases) {
      const body = bodyOf(tool, name)
      const message = await anthropic.messages.create(body)
      expect(message.stop_reason).toBe('tool_use')
      expect(message.content.map((b) => b.type)).toEqual(['tool_use'])
      const use = message.content[0] as Anthropic.ToolUseBlock
      expect(use.name).toBe(name)
      expect(use.input).toEqual(input)

      const stream = anthropic.messages.stream(body)
      const streamed = await stream.finalMessage()
      expect((streamed.content[0] as Anthropic.ToolUseBlock).input).toEqual(input)

      const next = await anthropic.messages.create({
        ...body,
        tool_choice: { type: 'auto' },
        messages: [
          ...body.messages,
          { role: 'assistant', content: message.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'done' }] },
        ],
      } as Body)
      expect(next.stop_reason).toBe('end_turn')
    }
  })

  it('code_execution forced: a bash_code_execution server_tool_use and its made-up result before the text, streamed the same', async () => {
    const { anthropic } = await client()
    const body = bodyOf({ type: 'code_execution_20250825', name: 'code_execution' }, 'code_execution')
    const message = await anthropic.messages.create(body)
    expect(message.stop_reason).toBe('end_turn')
    expect(message.content.map((b) => b.type)).toEqual(['server_tool_use', 'bash_code_execution_tool_result', 'text'])
    const use = message.content[0] as unknown as { id: string; name: string; input: unknown }
    expect(use.name).toBe('bash_code_execution')
    expect(use.input).toEqual({ command: `echo ${WORDS}` })
    const result = message.content[1] as unknown as { tool_use_id: string; content: Record<string, unknown> }
    expect(result.tool_use_id).toBe(use.id)
    expect(result.content).toEqual({ type: 'bash_code_execution_result', stdout: `${WORDS}\n`, stderr: '', return_code: 0, content: [] })

    const streamed = await anthropic.messages.stream(body).finalMessage()
    // The same blocks (ids follow each message's own).
    const sameIds = (content: unknown[]) => JSON.parse(JSON.stringify(content.slice(0, 2)).replace(/srvtoolu_[0-9a-f]+/g, 'srvtoolu_x')) as unknown
    expect(sameIds(streamed.content)).toEqual(sameIds(message.content))
  })

  it('a forced name no tool has is a 400 naming tool_choice.name', async () => {
    const { emu } = await client()
    const res = await emu.send(
      'POST',
      '/api/v1/messages',
      {
        model: MODEL,
        max_tokens: 64,
        messages: [{ role: 'user', content: QUESTION }],
        tools: [{ type: 'bash_20250124', name: 'bash' }],
        tool_choice: { type: 'tool', name: 'computer' },
      },
      emu.keys.standard,
    )
    expect(res.status).toBe(400)
    expect(res.body.error.metadata?.field ?? res.body.error.message).toMatch(/tool_choice\.name/)
  })
})
