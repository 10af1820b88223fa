// A response as server-sent events, as the real gateway streams it: each event named (`event: <type>`)
// with its `sequence_number`; response.created and response.in_progress, then each output item
// (output_item.added, a message's content part, its text, reasoning or argument deltas and their done
// events, a web search's in_progress, searching and completed events, an image generation's
// in_progress, generating and completed, output_item.done), then response.completed (or response.incomplete, cut at max_output_tokens) with
// the whole response, and `data: [DONE]`. A fault part way ends it with an `error` event and
// response.failed. Pacing, batching and faults are the text engine's (text.stream.ts).
import { ARGUMENT_PIECE, ERROR_TYPES, pieces, sse, type Frame, type FrameSource, type StreamError } from '../text/text.stream.ts'
import {
  interpreterCode,
  itemJson,
  outputItems,
  patchDiff,
  outputText,
  responseObject,
  urlCitation,
  responseResult,
  type CreatedResponse,
  type OutputItem,
} from './responses.service.ts'

/** What the real gateway sends first, while the model "thinks". */
const PROCESSING = ': OPENROUTER PROCESSING\n\n'

/** The Responses API's error codes (a reduced mapping of the gateway's error types), by status. */
function responsesErrorCode(status: number): 'invalid_prompt' | 'rate_limit_exceeded' | 'server_error' {
  if (status === 429) return 'rate_limit_exceeded'
  return status === 400 || status === 413 || status === 422 ? 'invalid_prompt' : 'server_error'
}

type Next = (type: string, payload: Record<string, unknown>, tokens?: number) => Frame

/**
 * The delta events of one text, each piece escaped into its event's template (the bytes of
 * `next(type, { ...fields, delta, ...tail }, tokens)`, with no object made per piece); `tail` the
 * fields after the delta, as JSON.
 */
type Deltas = (type: string, fields: Record<string, unknown>, texts: Iterable<string>, tokens?: number, tail?: string) => Generator<Frame>

/** `text` in pieces of ARGUMENT_PIECE characters, as tool-call arguments stream. */
function argumentPieces(text: string): string[] {
  const out: string[] = []
  for (let at = 0; at < text.length; at += ARGUMENT_PIECE) out.push(text.slice(at, at + ARGUMENT_PIECE))
  return out
}

/** The events of one output item, from its output_item.added to its output_item.done. */
function* itemEvents(item: OutputItem, outputIndex: number, next: Next, deltas: Deltas): Generator<Frame> {
  yield next('response.output_item.added', { output_index: outputIndex, item: itemJson(item, false) })
  const at = { item_id: item.id, output_index: outputIndex }
  switch (item.type) {
    case 'reasoning': {
      // The item came with its reasoning_text part (see itemJson): the text goes straight into it.
      const part = { ...at, content_index: 0 }
      yield* deltas('response.reasoning_text.delta', part, pieces(item.text), 1)
      yield next('response.reasoning_text.done', { ...part, text: item.text })
      if (item.summary !== null) {
        // A summary is not billed: its deltas carry no tokens.
        const summary = { ...at, summary_index: 0 }
        yield next('response.reasoning_summary_part.added', { ...summary, part: { type: 'summary_text', text: '' } })
        yield* deltas('response.reasoning_summary_text.delta', summary, pieces(item.summary))
        yield next('response.reasoning_summary_text.done', { ...summary, text: item.summary })
        yield next('response.reasoning_summary_part.done', { ...summary, part: { type: 'summary_text', text: item.summary } })
      }
      break
    }
    case 'message': {
      const part = { ...at, content_index: 0 }
      yield next('response.content_part.added', { ...part, part: outputText('') })
      yield* deltas('response.output_text.delta', part, pieces(item.text), 1, ',"logprobs":[]')
      for (const [annotationIndex, citation] of item.annotations.entries())
        yield next('response.output_text.annotation.added', { ...part, annotation_index: annotationIndex, annotation: urlCitation(citation) })
      yield next('response.output_text.done', { ...part, text: item.text, logprobs: [] })
      yield next('response.content_part.done', { ...part, part: outputText(item.text, item.annotations) })
      break
    }
    case 'function_call': {
      const args = item.call.function.arguments
      yield* deltas('response.function_call_arguments.delta', at, argumentPieces(args), Math.ceil(ARGUMENT_PIECE / 4))
      yield next('response.function_call_arguments.done', { ...at, name: item.call.function.name, arguments: args })
      break
    }
    case 'custom_tool_call': {
      const input = item.call.function.arguments
      yield* deltas('response.custom_tool_call_input.delta', at, argumentPieces(input), Math.ceil(ARGUMENT_PIECE / 4))
      yield next('response.custom_tool_call_input.done', { ...at, input })
      break
    }
    case 'web_search_call':
      yield next('response.web_search_call.in_progress', at)
      yield next('response.web_search_call.searching', at)
      yield next('response.web_search_call.completed', at)
      break
    case 'image_generation_call':
      yield next('response.image_generation_call.in_progress', at)
      yield next('response.image_generation_call.generating', at)
      yield next('response.image_generation_call.completed', at)
      break
    case 'forced_call':
      // The events the real document lists for the forced tool (the shell family's, the computer's and
      // file search's calls have none: their items come whole in output_item.done).
      if (item.forced.type === 'code_interpreter') {
        const code = interpreterCode(item.forced)
        yield next('response.code_interpreter_call.in_progress', at)
        yield* deltas('response.code_interpreter_call_code.delta', at, pieces(code))
        yield next('response.code_interpreter_call_code.done', { ...at, code })
        yield next('response.code_interpreter_call.interpreting', at)
        yield next('response.code_interpreter_call.completed', at)
      } else if (item.forced.type === 'apply_patch') {
        const diff = patchDiff(item.forced)
        yield* deltas('response.apply_patch_call_operation_diff.delta', at, pieces(diff))
        yield next('response.apply_patch_call_operation_diff.done', { ...at, diff })
      }
      break
  }
  yield next('response.output_item.done', { output_index: outputIndex, item: itemJson(item, true) })
}

/** A response as the frames of its stream, made as they are sent. */
export function responseFrames(created: CreatedResponse): FrameSource {
  let sequence = 0
  let exhausted = false
  const next: Next = (type, payload, tokens = 0) => ({ text: sse({ type, sequence_number: sequence++, ...payload }, type), tokens })
  const deltas: Deltas = function* (type, fields, texts, tokens = 0, tail = '') {
    const head = `event: ${type}\ndata: {"type":${JSON.stringify(type)},"sequence_number":`
    const before = JSON.stringify(fields).slice(1, -1)
    const middle = before === '' ? ',"delta":' : `,${before},"delta":`
    const end = `${tail}}\n\n`
    for (const text of texts) yield { text: `${head}${sequence++}${middle}${JSON.stringify(text)}${end}`, tokens }
  }
  const frames = function* (): Generator<Frame> {
    const pending = responseObject(created, { status: 'in_progress', completed_at: null, error: null, incomplete_details: null, output: [] })
    yield next('response.created', { response: pending })
    yield next('response.in_progress', { response: pending })
    const items = outputItems(created)
    for (const [index, item] of items.entries()) yield* itemEvents(item, index, next, deltas)
    const result = responseResult(created, items)
    yield next(result.status === 'completed' ? 'response.completed' : 'response.incomplete', { response: result })
    exhausted = true
  }
  return {
    prelude: PROCESSING,
    frames: frames(),
    epilogue: 'data: [DONE]\n\n',
    errorFrame(error: StreamError): string {
      // A stream breaks after taking a frame it does not send (which gave up its number), or at its end.
      let number = exhausted || sequence === 0 ? sequence : sequence - 1
      const code = responsesErrorCode(error.status)
      const event = (type: string, payload: Record<string, unknown>): string => sse({ type, sequence_number: number++, ...payload }, type)
      return (
        event('error', { code, message: error.message, param: null }) +
        event('response.failed', {
          response: responseObject(created, {
            status: 'failed',
            completed_at: null,
            error: { code, message: error.message },
            incomplete_details: null,
            output: [],
            error_type: ERROR_TYPES[error.status] ?? 'server',
          }),
        })
      )
    },
  }
}
