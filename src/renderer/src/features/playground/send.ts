// Sends a chat completion through the gateway on the page's own origin, with a key of the emulator's,
// and reads the answer: a stream as it arrives (server-sent events from fetch's body), or JSON. Errors
// come back as the gateway's own message: a 4xx/5xx JSON body, or a stream's error chunk.
import { origin } from '../../api.ts'
import { answerFromJson, StreamAssembler, type Answer, type StreamedAnswer } from '../../chat/answer.ts'
import { SseParser } from '../../chat/sse.ts'

export interface SendResult {
  status: number
  answer: Answer | StreamedAnswer
  streamed: boolean
  generationId: string | null
  /** The stream stopped before `data: [DONE]` without an error chunk: the connection was cut, or Stop was pressed. */
  cut: 'connection' | 'stopped' | null
}

/** Turns of a conversation as the API takes them. */
export interface ChatTurn {
  role: 'system' | 'user' | 'assistant'
  content: string | null
  tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>
}

export async function sendChat(
  token: string,
  body: Record<string, unknown>,
  signal: AbortSignal,
  onUpdate: (answer: StreamedAnswer) => void,
): Promise<SendResult> {
  const res = await fetch(`${origin()}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  })
  const generationId = res.headers.get('x-generation-id')
  if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream') && res.body) {
    const assembler = new StreamAssembler()
    const parser = new SseParser((data) => {
      assembler.push(data)
      onUpdate(assembler.snapshot())
    })
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
    let cut: SendResult['cut'] = null
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        parser.feed(value)
      }
    } catch {
      // A read fails when the connection is cut part way, or when Stop aborts it.
      cut = signal.aborted ? 'stopped' : 'connection'
    }
    parser.end()
    const answer = assembler.snapshot()
    return { status: res.status, answer, streamed: true, generationId, cut: cut ?? (answer.done || answer.error ? null : 'connection') }
  }
  const text = await res.text()
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = res.ok ? null : { error: { code: res.status, message: text || res.statusText } }
  }
  return { status: res.status, answer: answerFromJson(parsed), streamed: false, generationId, cut: null }
}
