// The Playground's conversation and options as plain data: the options' fields, the tools textarea
// read, and the turns of the conversation as the API takes them and as the transcript shows them.
import type { Answer } from '../../chat/answer.ts'
import type { MessageView } from '../../chat/request.ts'
import type { ChatTurn, SendResult } from './send.ts'

export interface Options {
  temperature: string
  maxTokens: string
  seed: string
  stream: boolean
  tools: string
  toolChoice: string
}

export const NO_OPTIONS: Options = { temperature: '', maxTokens: '', seed: '', stream: true, tools: '', toolChoice: '' }

export const TOOLS_EXAMPLE = `[{"type":"function","function":{"name":"get_weather","description":"The weather in a city","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}}]`

/** The tools textarea read: the list to send and its function names, or why it cannot be. */
export interface ParsedTools {
  tools: unknown[] | null
  names: string[]
  problem: string | null
}

export function parseTools(text: string): ParsedTools {
  if (text.trim() === '') return { tools: null, names: [], problem: null }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return { tools: null, names: [], problem: `Tools are not valid JSON: ${error instanceof Error ? error.message : String(error)}` }
  }
  if (!Array.isArray(value)) return { tools: null, names: [], problem: 'Tools must be a JSON array of {"type":"function","function":{...}} objects.' }
  const names = value
    .map((t: unknown) => (t as { function?: { name?: unknown } } | null)?.function?.name)
    .filter((n): n is string => typeof n === 'string' && n !== '')
  return { tools: value, names, problem: null }
}

export const toView = (turn: ChatTurn): MessageView => ({
  role: turn.role,
  parts: turn.content ? [{ kind: 'text', text: turn.content }] : [],
  toolCalls: (turn.tool_calls ?? []).map((c, index) => ({ index, id: c.id, name: c.function.name, arguments: c.function.arguments })),
  toolCallId: null,
  name: null,
})

/** The first choice of a finished answer as the assistant's turn of the conversation. */
export function turnOf(answer: Answer): ChatTurn | null {
  const choice = answer.choices[0]
  if (!choice) return null
  const calls = choice.toolCalls.map((c) => ({ id: c.id ?? `call_${c.index}`, type: 'function' as const, function: { name: c.name, arguments: c.arguments } }))
  return { role: 'assistant', content: choice.content, ...(calls.length > 0 && { tool_calls: calls }) }
}

export const failed = (result: SendResult): boolean => result.status >= 400 || result.answer.error !== null || result.cut !== null
