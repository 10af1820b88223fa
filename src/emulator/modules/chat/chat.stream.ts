// A completion as server-sent events, as the real gateway streams it: a `: OPENROUTER PROCESSING`
// comment while "thinking", then `chat.completion.chunk`s with the same id (the role first, content
// or tool-call argument deltas, the finish reason), a chunk with the usage, and `data: [DONE]`.
// With --chat-speed above 0 the first token waits for the endpoint's latency and the rest follow at
// its throughput, scaled by the setting; at 0 (the default) everything is sent at once.
import { RecordedStream } from '../../core/buffers.ts'
import type { Answer } from './chat.answer.ts'
import { usageOf, type Completion } from './chat.service.ts'

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Pieces of text as a model streams them: a word and its leading space at a time. */
const pieces = (text: string): string[] => text.match(/\s*\S+/g) ?? (text ? [text] : [])

/** Tool-call arguments in pieces of this many characters. */
const ARGUMENT_PIECE = 24

type Kind = 'chat' | 'text'

/** The events of one completion, each with the tokens it carries (for timing). */
function events(completion: Completion, kind: Kind): Array<{ data: Record<string, unknown>; tokens: number }> {
  const base = {
    id: completion.id,
    provider: completion.endpoint.provider_name,
    model: completion.model.id,
    object: kind === 'chat' ? 'chat.completion.chunk' : 'text_completion',
    created: completion.created,
  }
  const out: Array<{ data: Record<string, unknown>; tokens: number }> = []
  const chunk = (choice: Record<string, unknown>, tokens = 0) => out.push({ data: { ...base, choices: [choice] }, tokens })
  completion.answers.forEach((a: Answer, index) => {
    if (kind === 'text') {
      for (const piece of pieces(a.content ?? '')) chunk({ index, text: piece, finish_reason: null, native_finish_reason: null, logprobs: null }, 1)
      chunk({ index, text: '', finish_reason: a.finishReason, native_finish_reason: a.finishReason, logprobs: null })
      return
    }
    chunk({ index, delta: { role: 'assistant', content: '' }, finish_reason: null, native_finish_reason: null, logprobs: null })
    for (const piece of pieces(a.content ?? '')) chunk({ index, delta: { content: piece }, finish_reason: null, native_finish_reason: null, logprobs: null }, 1)
    a.toolCalls.forEach((call, callIndex) => {
      chunk({
        index,
        delta: { tool_calls: [{ index: callIndex, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] },
        finish_reason: null,
        native_finish_reason: null,
        logprobs: null,
      })
      const args = call.function.arguments
      for (let at = 0; at < args.length; at += ARGUMENT_PIECE) {
        chunk(
          {
            index,
            delta: { tool_calls: [{ index: callIndex, function: { arguments: args.slice(at, at + ARGUMENT_PIECE) } }] },
            finish_reason: null,
            native_finish_reason: null,
            logprobs: null,
          },
          Math.ceil(ARGUMENT_PIECE / 4),
        )
      }
    })
    chunk({ index, delta: {}, finish_reason: a.finishReason, native_finish_reason: a.finishReason, logprobs: null })
  })
  out.push({ data: { ...base, choices: [], usage: usageOf(completion) }, tokens: 0 })
  return out
}

/** Writes the completion's events into `body` at the configured pace, then ends it. */
export async function streamCompletion(body: RecordedStream, completion: Completion, kind: Kind, speed: number): Promise<void> {
  body.write(': OPENROUTER PROCESSING\n\n')
  if (speed > 0) await sleep(completion.latencyMs * speed)
  const msPerToken = speed > 0 ? (1000 / completion.tokensPerSecond) * speed : 0
  for (const event of events(completion, kind)) {
    if (msPerToken > 0 && event.tokens > 0) await sleep(event.tokens * msPerToken)
    if (!body.write(`data: ${JSON.stringify(event.data)}\n\n`)) return
  }
  body.write('data: [DONE]\n\n')
  body.end()
}
