// How an upstream's chat and text completion answers read (its JSON, and its stream chunk by chunk):
// the chat surfaces' upstream readers, registered with the text engine, used by record and replay.
import {
  choice,
  count,
  list,
  object,
  text,
  usageOf,
  type Json,
  type ReadAnswer,
  type StreamReading,
  type UpstreamReader,
} from '../text/text-upstream.service.ts'

const toolCall = (fn: unknown) => ({ name: text(object(fn).name) ?? '', arguments: text(object(fn).arguments) ?? '' })

/** A chat completion's JSON answer. */
function chatJson(answer: unknown): ReadAnswer {
  const json = object(answer)
  return {
    model: text(json.model) ?? '',
    provider: text(json.provider),
    choices: list(json.choices).map((c) => {
      const message = object(object(c).message)
      const calls = list(message.tool_calls).map((call) => toolCall(object(call).function))
      return choice(text(message.content), text(message.reasoning), calls, text(object(c).finish_reason) ?? 'stop')
    }),
    usage: usageOf(json.usage),
  }
}

/** A text completion's JSON answer. */
function completionJson(answer: unknown): ReadAnswer {
  const json = object(answer)
  return {
    model: text(json.model) ?? '',
    provider: text(json.provider),
    choices: list(json.choices).map((c) => choice(text(object(c).text), null, [], text(object(c).finish_reason) ?? 'stop')),
    usage: usageOf(json.usage),
  }
}

/** A chat or text completion chunk (a completion's text is `choices[].text`); true when it carried tokens. */
const chunk =
  (completion: boolean) =>
  (data: Json, into: StreamReading): boolean => {
    if (data.error !== undefined) into.error = text(object(data.error).message) ?? 'error'
    into.model = text(data.model) ?? into.model
    into.provider = text(data.provider) ?? into.provider
    if (data.usage !== undefined && data.usage !== null) into.usage = usageOf(data.usage)
    let tokens = false
    for (const raw of list(data.choices)) {
      const c = object(raw)
      const building = into.choice(count(c.index))
      const delta = object(c.delta)
      const piece = completion ? c.text : delta.content
      if (typeof piece === 'string' && piece !== '') tokens = true
      building.content = into.kept(building.content, piece)
      if (typeof delta.reasoning === 'string' && delta.reasoning !== '') {
        tokens = true
        building.reasoning = into.kept(building.reasoning, delta.reasoning)
      }
      for (const rawCall of list(delta.tool_calls)) {
        const call = object(rawCall)
        const fn = object(call.function)
        const at = count(call.index)
        const known = building.calls.get(at) ?? { name: '', arguments: '' }
        if (typeof fn.name === 'string' && fn.name !== '') known.name = fn.name
        if (typeof fn.arguments === 'string' && fn.arguments !== '') {
          tokens = true
          known.arguments = into.kept(known.arguments, fn.arguments) ?? ''
        }
        building.calls.set(at, known)
      }
      const finish = text(c.finish_reason)
      if (finish !== null) building.finish = finish
    }
    return tokens
  }

export const chatUpstream: UpstreamReader = { json: chatJson, event: chunk(false) }
export const completionsUpstream: UpstreamReader = { json: completionJson, event: chunk(true) }
