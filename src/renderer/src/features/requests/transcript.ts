// A completion's journal entry read as a transcript: a chat or text completion, a Responses API
// response or an Anthropic Messages API message. The conversation it sent, the answer it got (a
// recorded stream assembled from its events, or the JSON) and the facts around it (model, provider,
// tokens, cost, finish or stop reason, generation id, timing). Pure: no DOM, no requests. A body the
// journal cut at its size limit is said to be cut, never parsed into a broken transcript; a recorded
// stream cut that way still shows the events before the cut, marked as partial.
import type { JournalEntry } from '../../../../emulator/admin/types.ts'
import { answerFromJson, finishReasons, StreamAssembler, type Answer, type StreamedAnswer } from '../../chat/answer.ts'
import { MessagesStreamAssembler, messagesAnswerFromJson, messagesRequestView } from '../../chat/messages.ts'
import { requestView, type RequestView } from '../../chat/request.ts'
import { ResponsesStreamAssembler, responsesAnswerFromJson, responsesRequestView } from '../../chat/responses.ts'
import { sseData } from '../../chat/sse.ts'
import { header, kept, LIMIT_HINT, parseJson } from './body.ts'

export type TranscriptKind = 'chat' | 'text' | 'responses' | 'messages'

/** How each API's request and answer are read, and what its words are. */
interface Format {
  request: (body: unknown) => RequestView
  answer: (body: unknown) => Answer
  assembler: () => { push(data: string): void; snapshot(): StreamedAnswer }
  /** What the API calls why the answer ended. */
  finishLabel: string
  /** What the API calls the two token counts. */
  tokenWords: readonly [string, string]
  /** The event that ends a whole stream, as the note about a cut stream names it. */
  streamEnd: string
}

const CHAT: Format = {
  request: requestView,
  answer: answerFromJson,
  assembler: () => new StreamAssembler(),
  finishLabel: 'Finish reason',
  tokenWords: ['prompt', 'completion'],
  streamEnd: 'data: [DONE]',
}

const FORMATS: Record<TranscriptKind, Format> = {
  chat: CHAT,
  text: CHAT,
  responses: {
    request: responsesRequestView,
    answer: responsesAnswerFromJson,
    assembler: () => new ResponsesStreamAssembler(),
    finishLabel: 'Status',
    tokenWords: ['input', 'output'],
    streamEnd: 'response.completed',
  },
  messages: {
    request: messagesRequestView,
    answer: messagesAnswerFromJson,
    assembler: () => new MessagesStreamAssembler(),
    finishLabel: 'Stop reason',
    tokenWords: ['input', 'output'],
    streamEnd: 'message_stop',
  },
}

const OPERATIONS: Record<string, TranscriptKind> = {
  'chat.create': 'chat',
  'completions.create': 'text',
  'responses.create': 'responses',
  'messages.create': 'messages',
}

/** True for the operations a transcript is made for: chat and text completions, Responses and Messages. */
export const hasTranscript = (operation: string): boolean => operation in OPERATIONS

export interface TranscriptFacts {
  model: string | null
  provider: string | null
  promptTokens: number | null
  completionTokens: number | null
  /** USD (`usage.cost`). */
  cost: number | null
  /** Prompt tokens read from and written to the prompt cache, or null where neither happened. */
  cache: { read: number; written: number } | null
  finishReason: string | null
  /** The X-Generation-Id header (the answer's id when the header is missing). */
  generationId: string | null
  durationMs: number
  streamed: boolean
}

export interface Transcript {
  kind: TranscriptKind
  /** What the API calls why the answer ended: "Finish reason", "Status" (Responses), "Stop reason" (Messages). */
  finishLabel: string
  /** What the API calls its token counts: prompt and completion, or input and output. */
  tokenWords: readonly [string, string]
  /** The event a whole stream ends with (`data: [DONE]`, `response.completed`, `message_stop`). */
  streamEnd: string
  /** The request as shown, or null with the reason in `requestProblem`. */
  request: RequestView | null
  requestProblem: string | null
  /** The answer, or null with the reason in `answerProblem`. */
  answer: Answer | StreamedAnswer | null
  answerProblem: string | null
  /** A recorded stream the journal kept only the start of: what is shown stops there. */
  answerCut: string | null
  /** A stream that ended before its last event (`streamEnd`) without an error (the connection was cut); not the journal's limit. */
  streamCut: boolean
  facts: TranscriptFacts
}

/** The parts of a journal entry a transcript reads. */
export type TranscriptSource = Pick<JournalEntry, 'operation' | 'status' | 'aborted' | 'duration_ms' | 'request' | 'response'>

function readRequest(entry: TranscriptSource, format: Format): { request: RequestView | null; problem: string | null } {
  const body = kept(entry.request.body, 'request')
  if ('problem' in body) return { request: null, problem: body.problem }
  if (body.cutBytes !== null) {
    return {
      request: null,
      problem: `The journal kept only the first part of the request body (${body.cutBytes} more bytes were cut), so the conversation is not shown: ${LIMIT_HINT}.`,
    }
  }
  const parsed = parseJson(body.text)
  if (!parsed) return { request: null, problem: 'The request body is not JSON; see it below.' }
  return { request: format.request(parsed.value), problem: null }
}

interface ReadAnswer {
  answer: Answer | StreamedAnswer | null
  problem: string | null
  cut: string | null
  streamCut: boolean
}

function readAnswer(entry: TranscriptSource, streamed: boolean, format: Format): ReadAnswer {
  const none = (problem: string): ReadAnswer => ({ answer: null, problem, cut: null, streamCut: false })
  if (entry.status === 0) return none('No answer: the connection was closed before one was sent.')
  const body = kept(entry.response.body, 'answer')
  if ('problem' in body) return none(body.problem)
  if (streamed) {
    const assembler = format.assembler()
    for (const data of sseData(body.text)) assembler.push(data)
    const answer = assembler.snapshot()
    const cut =
      body.cutBytes === null
        ? null
        : `The journal kept only the first part of this stream (${body.cutBytes} more bytes were cut): the answer below stops there, and what came later (more text, the finish reason, the usage) is not known here; ${LIMIT_HINT}.`
    // An error event ends a stream without its last event on purpose: that is not a cut.
    return { answer, problem: null, cut, streamCut: body.cutBytes === null && !answer.done && answer.error === null }
  }
  if (body.cutBytes !== null)
    return none(`The journal kept only the first part of the answer (${body.cutBytes} more bytes were cut), so it is not shown: ${LIMIT_HINT}.`)
  const parsed = parseJson(body.text)
  if (!parsed) return none('The answer is not JSON; see it below.')
  return { answer: format.answer(parsed.value), problem: null, cut: null, streamCut: false }
}

export function transcriptOf(entry: TranscriptSource): Transcript {
  const kind = OPERATIONS[entry.operation] ?? 'chat'
  const format = FORMATS[kind]
  const streamed = (header(entry.response.headers, 'content-type') ?? '').startsWith('text/event-stream')
  const { request, problem: requestProblem } = readRequest(entry, format)
  const read = readAnswer(entry, streamed, format)
  const answer = read.answer
  return {
    kind,
    finishLabel: format.finishLabel,
    tokenWords: format.tokenWords,
    streamEnd: format.streamEnd,
    request,
    requestProblem,
    answer,
    answerProblem: read.problem,
    answerCut: read.cut,
    streamCut: read.streamCut,
    facts: {
      model: answer?.model ?? request?.model ?? null,
      provider: answer?.provider ?? null,
      promptTokens: answer?.usage?.promptTokens ?? null,
      completionTokens: answer?.usage?.completionTokens ?? null,
      cost: answer?.usage?.cost ?? null,
      cache: answer?.usage?.cache ?? null,
      finishReason: answer ? finishReasons(answer) : null,
      generationId: header(entry.response.headers, 'x-generation-id') ?? answer?.id ?? null,
      durationMs: entry.duration_ms,
      streamed,
    },
  }
}
