// A chat or text completion's journal entry read as a transcript: the conversation it sent, the answer
// it got (a recorded stream assembled, or the JSON choices) and the facts around it (model, provider,
// tokens, cost, finish reason, generation id, timing). Pure: no DOM, no requests. A body the journal
// cut at its size limit is said to be cut, never parsed into a broken transcript; a recorded stream
// cut that way still shows the events before the cut, marked as partial.
import type { JournalEntry } from '../../../../emulator/admin/types.ts'
import { answerFromJson, finishReasons, StreamAssembler, type Answer, type StreamedAnswer } from '../../chat/answer.ts'
import { requestView, type RequestView } from '../../chat/request.ts'
import { sseData } from '../../chat/sse.ts'

const OPERATIONS: Record<string, 'chat' | 'text'> = { 'chat.create': 'chat', 'completions.create': 'text' }

/** True for the operations a transcript is made for: chat and text completions. */
export const hasTranscript = (operation: string): boolean => operation in OPERATIONS

export interface TranscriptFacts {
  model: string | null
  provider: string | null
  promptTokens: number | null
  completionTokens: number | null
  /** USD (`usage.cost`). */
  cost: number | null
  finishReason: string | null
  /** The X-Generation-Id header (the answer's id when the header is missing). */
  generationId: string | null
  durationMs: number
  streamed: boolean
}

export interface Transcript {
  kind: 'chat' | 'text'
  /** The request as shown, or null with the reason in `requestProblem`. */
  request: RequestView | null
  requestProblem: string | null
  /** The answer, or null with the reason in `answerProblem`. */
  answer: Answer | StreamedAnswer | null
  answerProblem: string | null
  /** A recorded stream the journal kept only the start of: what is shown stops there. */
  answerCut: string | null
  /** A stream that ended before `data: [DONE]` without an error chunk (the connection was cut); not the journal's limit. */
  streamCut: boolean
  facts: TranscriptFacts
}

/** The parts of a journal entry a transcript reads. */
export type TranscriptSource = Pick<JournalEntry, 'operation' | 'status' | 'aborted' | 'duration_ms' | 'request' | 'response'>

const CUT = /… \((\d+) more bytes\)$/
/** Notes the journal keeps instead of a body it did not record. */
const NOT_KEPT = [/^\(\d+ bytes, too large to record\)$/, /^\(a stream, not recorded\)$/, /^\(\d+ bytes that could not be shown\)$/]

type Kept = { text: string; cutBytes: number | null } | { problem: string }

const LIMIT_HINT = 'raise --journal-body-limit to keep whole bodies'

function kept(body: string | null, what: 'request' | 'answer'): Kept {
  if (body === null || body === '') return { problem: `The ${what} had no body.` }
  if (NOT_KEPT.some((note) => note.test(body))) return { problem: `The journal did not keep the ${what}'s body ${body}.` }
  const cut = CUT.exec(body)
  return cut ? { text: body.slice(0, cut.index), cutBytes: Number(cut[1]) } : { text: body, cutBytes: null }
}

const parseJson = (text: string): { value: unknown } | null => {
  try {
    return { value: JSON.parse(text) as unknown }
  } catch {
    return null
  }
}

const header = (headers: Record<string, string>, name: string): string | null =>
  Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1] ?? null

function readRequest(entry: TranscriptSource): { request: RequestView | null; problem: string | null } {
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
  return { request: requestView(parsed.value), problem: null }
}

interface ReadAnswer {
  answer: Answer | StreamedAnswer | null
  problem: string | null
  cut: string | null
  streamCut: boolean
}

function readAnswer(entry: TranscriptSource, streamed: boolean): ReadAnswer {
  const none = (problem: string): ReadAnswer => ({ answer: null, problem, cut: null, streamCut: false })
  if (entry.status === 0) return none('No answer: the connection was closed before one was sent.')
  const body = kept(entry.response.body, 'answer')
  if ('problem' in body) return none(body.problem)
  if (streamed) {
    const assembler = new StreamAssembler()
    for (const data of sseData(body.text)) assembler.push(data)
    const answer = assembler.snapshot()
    const cut =
      body.cutBytes === null
        ? null
        : `The journal kept only the first part of this stream (${body.cutBytes} more bytes were cut): the answer below stops there, and what came later (more text, the finish reason, the usage) is not known here; ${LIMIT_HINT}.`
    // An error chunk ends a stream without [DONE] on purpose: that is not a cut.
    return { answer, problem: null, cut, streamCut: body.cutBytes === null && !answer.done && answer.error === null }
  }
  if (body.cutBytes !== null)
    return none(`The journal kept only the first part of the answer (${body.cutBytes} more bytes were cut), so it is not shown: ${LIMIT_HINT}.`)
  const parsed = parseJson(body.text)
  if (!parsed) return none('The answer is not JSON; see it below.')
  return { answer: answerFromJson(parsed.value), problem: null, cut: null, streamCut: false }
}

export function transcriptOf(entry: TranscriptSource): Transcript {
  const kind = OPERATIONS[entry.operation] ?? 'chat'
  const streamed = (header(entry.response.headers, 'content-type') ?? '').startsWith('text/event-stream')
  const { request, problem: requestProblem } = readRequest(entry)
  const read = readAnswer(entry, streamed)
  const answer = read.answer
  return {
    kind,
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
      finishReason: answer ? finishReasons(answer) : null,
      generationId: header(entry.response.headers, 'x-generation-id') ?? answer?.id ?? null,
      durationMs: entry.duration_ms,
      streamed,
    },
  }
}
