// How an upstream's Messages API answers read (its JSON, and its stream event by event), in chat's
// words: the Messages surface's upstream reader, registered with the text engine, used by record and replay.
import {
  choice,
  count,
  joined,
  list,
  object,
  text,
  usageOf,
  type Json,
  type ReadAnswer,
  type StreamReading,
  type UpstreamReader,
} from '../text/text-upstream.service.ts'

/** Anthropic's stop reasons as chat's finish reasons. */
const MESSAGES_FINISH: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
}

const messagesFinish = (reason: unknown): string => MESSAGES_FINISH[text(reason) ?? ''] ?? 'stop'

function messageJson(answer: unknown): ReadAnswer {
  const json = object(answer)
  const blocks = list(json.content).map(object)
  const calls = blocks.filter((b) => b.type === 'tool_use').map((b) => ({ name: text(b.name) ?? '', arguments: JSON.stringify(b.input ?? {}) }))
  const content = joined(blocks.filter((b) => b.type === 'text').map((b) => text(b.text)))
  const reasoning = joined(blocks.filter((b) => b.type === 'thinking').map((b) => text(b.thinking)))
  return {
    model: text(json.model) ?? '',
    provider: text(json.provider),
    choices: [choice(content, reasoning, calls, messagesFinish(json.stop_reason))],
    usage: usageOf(json.usage),
  }
}

/** A Messages API event; true when it carried tokens. */
function messageEvent(data: Json, reading: StreamReading): boolean {
  const into = reading.choice(0)
  switch (data.type) {
    case 'message_start': {
      const message = object(data.message)
      reading.model = text(message.model) ?? reading.model
      reading.provider = text(message.provider) ?? reading.provider
      reading.promptTokens = count(object(message.usage).input_tokens)
      return false
    }
    case 'content_block_start': {
      const block = object(data.content_block)
      if (block.type === 'tool_use') into.calls.set(count(data.index), { name: text(block.name) ?? '', arguments: '' })
      return false
    }
    case 'content_block_delta': {
      const delta = object(data.delta)
      if (delta.type === 'text_delta') into.content = reading.kept(into.content, delta.text)
      else if (delta.type === 'thinking_delta') into.reasoning = reading.kept(into.reasoning, delta.thinking)
      else if (delta.type === 'input_json_delta') {
        const call = into.calls.get(count(data.index))
        if (call && typeof delta.partial_json === 'string') call.arguments = reading.kept(call.arguments, delta.partial_json) ?? ''
      } else return false
      return true
    }
    case 'message_delta': {
      into.finish = messagesFinish(object(data.delta).stop_reason)
      const usage = usageOf(data.usage)
      // message_delta's usage may leave the input tokens to message_start.
      reading.usage = { ...usage, prompt_tokens: usage.prompt_tokens || (reading.promptTokens ?? 0) }
      return false
    }
    case 'message_stop':
      reading.finished = true
      return false
    case 'error':
      reading.error = text(object(data.error).message) ?? 'error'
      return false
    default:
      return false
  }
}

export const messagesUpstream: UpstreamReader = { json: messageJson, event: messageEvent }
