// The words of record and replay: a request no recording answers (--on-miss error), a folder of
// recordings that cannot be loaded, and a reload that found a malformed file.
import { ApiError } from '../../core/errors.ts'

/** The most characters of the last user message an error quotes. */
const QUOTED_CHARS = 120

const quoted = (text: string): string => JSON.stringify(text.length > QUOTED_CHARS ? `${text.slice(0, QUOTED_CHARS)}…` : text)

/**
 * No recording answers the request, and --on-miss is `error`. A 404: what was asked for is not in the
 * recorded set (nothing failed, the request itself is valid), and clients do not retry a 404 as they
 * retry a 429 or a 5xx, so a test that missed a recording fails at once, naming what it asked.
 */
export function noRecording(model: string | null, lastUser: string | null): ApiError {
  const what = [model !== null ? `model ${model}` : null, lastUser !== null ? `last user message ${quoted(lastUser)}` : null].filter(Boolean).join(', ')
  return new ApiError(
    404,
    `No recorded answer matched this request${what ? ` (${what})` : ''}: record it (--upstream with --record), loosen a recording's \`match\`, or start with --on-miss generate`,
    {
      metadata: {
        reason: 'no_recording',
        model,
        ...(lastUser !== null && { last_user: lastUser.length > QUOTED_CHARS ? `${lastUser.slice(0, QUOTED_CHARS)}…` : lastUser }),
      },
    },
  )
}

/** One thing wrong with one recorded file: the file as the folder was given, the field, what is wrong. */
export interface RecordingProblem {
  file: string
  /** The field's path in the file (`text.choices[0].finish_reason`), or '' for the file as a whole. */
  field: string
  issue: string
}

export const problemLine = (problem: RecordingProblem): string => `${problem.file}: ${problem.field ? `${problem.field} ` : ''}${problem.issue}`

/** The folder given to --replay cannot be loaded: the start is refused, naming each file and field. */
export class RecordingsError extends Error {
  override name = 'RecordingsError'
  readonly problems: readonly RecordingProblem[]

  constructor(folder: string, problems: readonly RecordingProblem[]) {
    const shown = problems.slice(0, 20).map((p) => `  ${problemLine(p)}`)
    const more = problems.length > shown.length ? [`  ... and ${problems.length - shown.length} more (gateway-emulator validate ${folder} lists them all)`] : []
    const head = problems.length === 1 ? `--replay ${folder}: ${problemLine(problems[0]!)}` : `--replay ${folder}: ${problems.length} problems`
    super(problems.length === 1 ? head : [head, ...shown, ...more].join('\n'))
    this.problems = problems
  }
}

/** POST /_emulator/api/recordings/reload found a malformed file: nothing changes. */
export function reloadRefused(problems: readonly RecordingProblem[], kept: number): ApiError {
  const first = problems[0]!
  return new ApiError(
    400,
    `Cannot reload the recordings: ${problemLine(first)}${problems.length > 1 ? ` (and ${problems.length - 1} more problems)` : ''}; the ${kept} loaded before stay in use`,
    { metadata: { file: first.file, field: first.field || null, issue: first.issue, problems: problems.length } },
  )
}

// ---- The upstream proxy (--upstream): never the key, the upstream's origin only --------------------

export const noUpstream = (): ApiError => new ApiError(502, 'No upstream gateway is set: start the emulator with --upstream <url>')

export const upstreamNotConnected = (origin: string, timeoutMs: number): ApiError =>
  new ApiError(502, `Could not connect to the upstream gateway ${origin} within ${timeoutMs / 1000} s`, { metadata: { upstream: origin } })

export const upstreamTimedOut = (origin: string, timeoutMs: number): ApiError =>
  new ApiError(504, `The upstream gateway ${origin} did not answer within ${timeoutMs / 1000} s`, { metadata: { upstream: origin } })

export const clientLeftBeforeUpstream = (): ApiError => new ApiError(408, 'The client closed the request before the upstream answered')

export const upstreamAnswerTooLarge = (origin: string, limitBytes: number): ApiError =>
  new ApiError(502, `The upstream gateway ${origin} answered more than ${limitBytes / 1024 / 1024} MiB, which the emulator does not relay`, {
    metadata: { upstream: origin, limit_bytes: limitBytes },
  })

export const upstreamUnreachable = (origin: string, why: string): ApiError =>
  new ApiError(502, `The upstream gateway ${origin} is unreachable: ${why}`, { metadata: { upstream: origin } })

export const upstreamKeyRefused = (origin: string, said: string | undefined): ApiError =>
  new ApiError(502, `The upstream gateway ${origin} refused the upstream key (401${said ? `: ${said}` : ''}): check --upstream-key`, {
    metadata: { upstream: origin, upstream_status: 401 },
  })

export const upstreamRedirected = (origin: string, status: number): ApiError =>
  new ApiError(502, `The upstream gateway ${origin} answered ${status}, a redirect, which the emulator does not follow`, {
    metadata: { upstream: origin, upstream_status: status },
  })

/** An upstream's error relayed in the route's envelope: its status (or 502), its words, its rate-limit headers. */
export const upstreamError = (status: number, message: string, headers: Record<string, string>, metadata: Record<string, unknown> | undefined): ApiError =>
  new ApiError(status, message, { headers, ...(metadata && { metadata }) })
