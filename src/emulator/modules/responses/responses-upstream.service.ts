// How an upstream's Responses API answers read (its JSON, and its stream event by event), in chat's
// words: the Responses surface's upstream reader, registered with the text engine, used by record and replay.
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
  type ReadChoice,
  type StreamReading,
  type UpstreamReader,
} from '../text/text-upstream.service.ts'

/** A response's status as chat's finish reason: cut at max_output_tokens is `length`; calls are `tool_calls`. */
function responsesFinish(response: Json, calls: number): string {
  if (response.status === 'incomplete') return object(response.incomplete_details).reason === 'content_filter' ? 'content_filter' : 'length'
  return calls > 0 ? 'tool_calls' : 'stop'
}

/** A response's output items as one choice: its messages' text, its reasoning, its function calls. */
function responseChoice(response: Json): ReadChoice {
  const items = list(response.output).map(object)
  const content = joined(
    items
      .filter((i) => i.type === 'message')
      .flatMap((i) => list(i.content).map((part) => (object(part).type === 'output_text' ? text(object(part).text) : null))),
  )
  const reasoning = joined(
    items
      .filter((i) => i.type === 'reasoning')
      .map((i) => {
        // The reasoning's own text where the answer shows it, else its summary.
        const own = joined(list(i.content).map((part) => text(object(part).text)))
        return own ?? joined(list(i.summary).map((part) => text(object(part).text)))
      }),
  )
  const calls = items.filter((i) => i.type === 'function_call').map((i) => ({ name: text(i.name) ?? '', arguments: text(i.arguments) ?? '' }))
  return choice(content, reasoning, calls, responsesFinish(response, calls.length))
}

function responseJson(answer: unknown): ReadAnswer {
  const json = object(answer)
  return { model: text(json.model) ?? '', provider: text(json.provider), choices: [responseChoice(json)], usage: usageOf(json.usage) }
}

/** A Responses API event; true when it carried tokens. */
function responseEvent(data: Json, reading: StreamReading): boolean {
  const into = reading.choice(0)
  switch (data.type) {
    case 'response.created':
    case 'response.in_progress':
      reading.model = text(object(data.response).model) ?? reading.model
      reading.provider = text(object(data.response).provider) ?? reading.provider
      return false
    case 'response.output_text.delta':
      into.content = reading.kept(into.content, data.delta)
      return true
    case 'response.reasoning_text.delta':
      into.reasoning = reading.kept(into.reasoning, data.delta)
      return true
    case 'response.output_item.added': {
      const item = object(data.item)
      if (item.type === 'function_call') into.calls.set(count(data.output_index), { name: text(item.name) ?? '', arguments: '' })
      return false
    }
    case 'response.function_call_arguments.delta': {
      const call = into.calls.get(count(data.output_index))
      if (call && typeof data.delta === 'string') call.arguments = reading.kept(call.arguments, data.delta) ?? ''
      return true
    }
    case 'response.completed':
    case 'response.incomplete':
      reading.whole(responseJson(data.response))
      reading.finished = true
      return false
    case 'error':
    case 'response.failed':
      reading.error ??= text(data.message) ?? text(object(object(data.response).error).message) ?? 'error'
      return false
    default:
      return false
  }
}

export const responsesUpstream: UpstreamReader = { json: responseJson, event: responseEvent }
