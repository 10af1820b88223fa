// A message as Anthropic streams it, each event named by `event:`: message_start (the message with no
// content yet), a ping, then for each block content_block_start, its deltas (thinking_delta and a
// signature_delta, citations_delta and text_delta, input_json_delta; a web_search_tool_result comes whole
// with its start) and content_block_stop, then message_delta (the stop
// reason and the usage) and message_stop. Pacing, batching and faults are the text engine's
// (text.stream.ts); a fault part way ends the stream with Anthropic's `event: error`.
import { anthropicError } from '../../http/error-handler.ts'
import type { Completion } from '../text/text-engine.service.ts'
import { ARGUMENT_PIECE, pieces, sse, type Frame, type FrameSource } from '../text/text.stream.ts'
import { blocksOf, cacheUsage, messageHead, stopOf, usageOf, type ContentBlock, type MessageOptions } from './messages.service.ts'

const frame = (data: { type: string } & Record<string, unknown>, tokens = 0): Frame => ({ text: sse(data, data.type), tokens })

/** A block as content_block_start announces it: its fields, with nothing written yet. */
function emptied(block: ContentBlock): ContentBlock {
  switch (block.type) {
    case 'thinking':
      return { type: 'thinking', thinking: '', signature: '' }
    case 'text':
      return { type: 'text', text: '', citations: null }
    case 'tool_use':
    case 'server_tool_use':
      return { ...block, input: {} }
    case 'web_search_tool_result':
    case 'web_fetch_tool_result':
    case 'bash_code_execution_tool_result':
      return block
  }
}

function* events(completion: Completion, options: MessageOptions): Generator<Frame> {
  yield frame({
    type: 'message_start',
    message: {
      ...messageHead(completion),
      content: [],
      stop_reason: null,
      stop_sequence: null,
      stop_details: null,
      container: null,
      usage: {
        ...cacheUsage(completion, 0),
        inference_geo: null,
        output_tokens_details: null,
        server_tool_use: null,
        service_tier: 'standard',
      },
    },
  })
  yield frame({ type: 'ping' })
  for (const [index, { block, json }] of blocksOf(completion, options).entries()) {
    yield frame({ type: 'content_block_start', index, content_block: emptied(block) })
    const delta = (body: Record<string, unknown>, tokens: number): Frame => frame({ type: 'content_block_delta', index, delta: body }, tokens)
    // A delta's text is escaped into the template of its event: the bytes of `delta({ type, [field]: text })`.
    const deltaHead = `event: content_block_delta\ndata: {"type":"content_block_delta","index":${index},"delta":{"type":`
    const texts = (type: string, field: string) => `${deltaHead}"${type}","${field}":`
    if (block.type === 'thinking') {
      const thinking = texts('thinking_delta', 'thinking')
      for (const piece of pieces(block.thinking)) yield { text: `${thinking}${JSON.stringify(piece)}}}\n\n`, tokens: 1 }
      // Omitted thinking is written (and billed) all the same: its tokens go with the signature.
      yield delta({ type: 'signature_delta', signature: block.signature }, block.thinking === '' ? completion.reasoningTokens : 0)
    } else if (block.type === 'text') {
      for (const citation of block.citations ?? []) yield delta({ type: 'citations_delta', citation }, 0)
      const text = texts('text_delta', 'text')
      for (const piece of pieces(block.text)) yield { text: `${text}${JSON.stringify(piece)}}}\n\n`, tokens: 1 }
    } else if (block.type === 'web_search_tool_result' || block.type === 'web_fetch_tool_result' || block.type === 'bash_code_execution_tool_result') {
      // Its results come whole with content_block_start, as Anthropic sends them.
    } else {
      const args = json ?? ''
      const partial = texts('input_json_delta', 'partial_json')
      for (let at = 0; at < args.length; at += ARGUMENT_PIECE)
        yield { text: `${partial}${JSON.stringify(args.slice(at, at + ARGUMENT_PIECE))}}}\n\n`, tokens: Math.ceil(ARGUMENT_PIECE / 4) }
    }
    yield frame({ type: 'content_block_stop', index })
  }
  const stop = stopOf(completion.answers[0]!)
  yield frame({
    type: 'message_delta',
    delta: { stop_reason: stop.reason, stop_sequence: stop.sequence, stop_details: null, container: null },
    usage: usageOf(completion, options),
  })
  yield frame({ type: 'message_stop' })
}

/** A message as the frames of its stream. */
export function messageFrames(completion: Completion, options: MessageOptions): FrameSource {
  return {
    prelude: '',
    frames: events(completion, options),
    epilogue: '',
    errorFrame: (error) => sse({ type: 'error', error: anthropicError(error.status, error.message) }, 'error'),
  }
}
