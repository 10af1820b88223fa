// A chat or text completion as server-sent events, as the real gateway streams it: a `: OPENROUTER
// PROCESSING` comment while "thinking", then `chat.completion.chunk`s with the same id (the role
// first, reasoning with its reasoning_details, content or tool-call argument deltas, the finish reason), a chunk with the usage,
// and `data: [DONE]`. Pacing, batching and faults are the text engine's (text.stream.ts).
import { chatAnnotations, chatImagesOf, usageOf } from './chat.service.ts'
import type { Completion } from '../text/text-engine.service.ts'
import { reasoningDeltas } from '../text/text-reasoning.service.ts'
import { ARGUMENT_PIECE, ERROR_TYPES, pieces, type Frame, type FrameSource } from '../text/text.stream.ts'

/** What the real gateway sends first, while the model "thinks". */
const PROCESSING = ': OPENROUTER PROCESSING\n\n'

type Kind = 'chat' | 'text'

/** What ends every choice but the last one (the finish reason's), after its delta or text. */
const OPEN_CHOICE = ',"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}\n\n'

/** The events of one completion as their frames, each with the tokens it carries (for timing), made as they are sent. */
function* events(completion: Completion, kind: Kind): Generator<Frame> {
  // What every chunk starts with is serialized once; each chunk adds only its choice (the bytes are
  // those of `sse({ ...base, choices: [choice] })`, for a fraction of the work), and a delta's text is
  // escaped into the template of its chunk, with no object made for it.
  const head = `data: ${JSON.stringify(chunkBase(completion, kind)).slice(0, -1)},"choices":[`
  const chunk = (choice: Record<string, unknown>, tokens = 0): Frame => ({ text: `${head}${JSON.stringify(choice)}]}\n\n`, tokens })
  for (const [index, a] of completion.answers.entries()) {
    if (kind === 'text') {
      const text = `${head}{"index":${index},"text":`
      for (const piece of pieces(a.content ?? '')) yield { text: text + JSON.stringify(piece) + OPEN_CHOICE, tokens: 1 }
      yield chunk({ index, text: '', finish_reason: a.finishReason, native_finish_reason: a.finishReason, logprobs: null })
      continue
    }
    yield chunk({ index, delta: { role: 'assistant', content: '' }, finish_reason: null, native_finish_reason: null, logprobs: null })
    // Each piece of the thought with its part of the reasoning details; encrypted details after them, before the content.
    if (a.reasoning !== null)
      for (const delta of reasoningDeltas(completion.model.id, a.reasoning, pieces(a.reasoning)))
        yield chunk(
          { index, delta: { content: '', ...delta }, finish_reason: null, native_finish_reason: null, logprobs: null },
          delta.reasoning === undefined ? 0 : 1,
        )
    const content = `${head}{"index":${index},"delta":{"content":`
    for (const piece of pieces(a.content ?? '')) yield { text: `${content}${JSON.stringify(piece)}}${OPEN_CHOICE}`, tokens: 1 }
    if (a.annotations)
      yield chunk({
        index,
        delta: { content: '', annotations: chatAnnotations(a.annotations) },
        finish_reason: null,
        native_finish_reason: null,
        logprobs: null,
      })
    const images = chatImagesOf(completion, index)
    if (images) {
      const delta = { images: images.map((url, i) => ({ type: 'image_url', image_url: { url }, index: i })) }
      yield chunk({ index, delta, finish_reason: null, native_finish_reason: null, logprobs: null })
    }
    for (const [callIndex, call] of a.toolCalls.entries()) {
      yield chunk({
        index,
        delta: { tool_calls: [{ index: callIndex, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] },
        finish_reason: null,
        native_finish_reason: null,
        logprobs: null,
      })
      const args = call.function.arguments
      const argument = `${head}{"index":${index},"delta":{"tool_calls":[{"index":${callIndex},"function":{"arguments":`
      for (let at = 0; at < args.length; at += ARGUMENT_PIECE)
        yield { text: `${argument}${JSON.stringify(args.slice(at, at + ARGUMENT_PIECE))}}}]}${OPEN_CHOICE}`, tokens: Math.ceil(ARGUMENT_PIECE / 4) }
    }
    yield chunk({ index, delta: {}, finish_reason: a.finishReason, native_finish_reason: a.finishReason, logprobs: null })
  }
  yield { text: `${head}],"usage":${JSON.stringify(usageOf(completion))}}\n\n`, tokens: 0 }
}

/** A chat or text completion as the frames of its stream. */
export function chatFrames(completion: Completion, kind: Kind): FrameSource {
  return {
    prelude: PROCESSING,
    frames: events(completion, kind),
    epilogue: 'data: [DONE]\n\n',
    errorFrame: (error) =>
      errorChunk(completion, kind, { code: error.status, message: error.message, metadata: { error_type: ERROR_TYPES[error.status] ?? 'server' } }),
  }
}

/** The event that carries an error, with `finish_reason: "error"`. */
function errorChunk(completion: Completion, kind: Kind, error: { code: number; message: string; metadata: Record<string, unknown> }): string {
  const choice =
    kind === 'chat'
      ? { index: 0, delta: { content: '' }, finish_reason: 'error', native_finish_reason: 'error', logprobs: null }
      : { index: 0, text: '', finish_reason: 'error', native_finish_reason: 'error', logprobs: null }
  return `data: ${JSON.stringify({ ...chunkBase(completion, kind), error, choices: [choice] })}\n\n`
}

/** What every event of a completion carries. */
function chunkBase(completion: Completion, kind: Kind): Record<string, unknown> {
  return {
    id: completion.id,
    provider: completion.endpoint.provider_name,
    model: completion.model.id,
    object: kind === 'chat' ? 'chat.completion.chunk' : 'text_completion',
    created: completion.created,
  }
}
