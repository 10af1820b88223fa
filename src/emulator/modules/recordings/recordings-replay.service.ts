// The recordings of the --replay folder: every `*.json` file in it (and its subfolders), read and
// checked at start (a malformed file refuses the start, naming the file and the field), read again
// when the folder changes (a malformed file then keeps the set as it was, with a warning), and found
// for a request: by its normal form (recordings-normal.service.ts), or, where a file loosens its match, by
// conditions as chat fixtures' are. Files are tried in name order; `times` counts the uses of this
// process (a billed answer is one), and a reset gives them back.
import { watch, type FSWatcher } from 'node:fs'
import { join } from 'node:path'
import { compileCheck } from '../../http/validation.ts'
import type { CatalogEndpoint, CatalogModel } from '../catalog/catalog.schemas.ts'
import { badRegex, conditionsMismatch, type FixtureSubject } from '../text/text-fixtures.service.ts'
import { fixtureSubject, type TextAsk } from '../text/text-engine.service.ts'
import type { RecordedTextAnswer } from './recordings-source.service.ts'
import type { RecordingView } from './recordings.schemas.ts'
import type { RecordingProblem } from './recordings.errors.ts'
import {
  all,
  breathe,
  listFolder,
  MAX_FILE_BYTES,
  MAX_FILES,
  MAX_FOLDER_BYTES,
  parse,
  readRecordingFile,
  runAsync,
  runSync,
  type Steps,
} from './recordings-files.service.ts'
import {
  NormalTextRequest,
  RAW_ANSWER_BYTES,
  RAW_OUTPUT,
  RECORDING_FORMAT,
  RecordingFile,
  type RecordedOperation,
  type RecordedRaw,
  type RecordingMatch,
} from './recordings-format.service.ts'
import { canonicalText, isTextOperation, normalRawRequest, normalTextRequest, type RawOperation } from './recordings-normal.service.ts'

// The folder's bounds live with the reading of it (recordings-files.service.ts), shared with the recorder.
export { MAX_FILE_BYTES, MAX_FILES, MAX_FOLDER_BYTES } from './recordings-files.service.ts'
/** Files read side by side on a reload: at most this many files' bytes (6.9 MB each at most) wait to be checked. */
const READ_AHEAD = 4
/** The finish reasons a recorded answer may have (chat's words); `content_filter` replays as `stop`. */
const FINISH_REASONS = ['stop', 'length', 'tool_calls', 'content_filter']
/** Conditions of `match` that read a conversation: text operations only. */
const TEXT_CONDITIONS = ['last_user', 'last_user_regex', 'system', 'system_regex', 'tool', 'tool_result'] as const

/** One loaded recording. */
export interface Recording {
  /** Its path relative to the folder, with `/` (the journal and the admin API name it so). */
  file: string
  operation: RecordedOperation
  body: RecordingFile
  /** The normal request's key (compact JSON), or null where `match` loosens the match. */
  key: string | null
  /** The file's SHA-256: a file unchanged by a reload keeps its count of uses. */
  digest: string
  uses: number
}

export interface LoadedFolder {
  recordings: Recording[]
  problems: RecordingProblem[]
  /** `.json` files found (read or not). */
  files: number
}

const checkFile = compileCheckLazy(RecordingFile)
const checkNormalText = compileCheckLazy(NormalTextRequest)

function compileCheckLazy(schema: object): (value: unknown) => { field: string; issue: string } | null {
  let check: ReturnType<typeof compileCheck> | undefined
  return (value) => (check ??= compileCheck(schema))(value)
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)

/**
 * Reads and checks every recording of `folder` (the path as given: problems name files under it), at
 * the start and for `validate`: synchronously, since nothing is served yet, under the same rules and
 * bounds as a reload (at most MAX_FILES files, MAX_FOLDER_BYTES in all, each read under MAX_FILE_BYTES).
 */
export const loadFolder = (folder: string): LoadedFolder => runSync(folderSteps(folder))

/** The same, on the thread pool, while requests are served: a reload, or the folder's watcher. */
export const loadFolderAsync = (folder: string): Promise<LoadedFolder> => runAsync(folderSteps(folder))

/** Nothing is loaded past a bound of the folder; every file is checked, and each problem is named. */
function* folderSteps(folder: string): Steps<LoadedFolder> {
  const listed = yield* listFolder(folder)
  if ('problem' in listed) return { recordings: [], problems: [{ file: folder, field: '', issue: listed.problem }], files: 0 }
  if (listed.files.length > MAX_FILES)
    return {
      recordings: [],
      problems: [{ file: folder, field: '', issue: `holds more than ${MAX_FILES} .json files (the most --replay loads)` }],
      files: listed.files.length,
    }
  const recordings: Recording[] = []
  const problems: RecordingProblem[] = []
  let total = 0
  // Files are read a few at a time (side by side on a reload), then checked in name order.
  for (let at = 0; at < listed.files.length; at += READ_AHEAD) {
    const files = listed.files.slice(at, at + READ_AHEAD)
    const reads = yield* all(files.map((file) => readRecordingFile(folder, listed.root, file, MAX_FILE_BYTES)))
    for (const [i, read] of reads.entries()) {
      const file = files[i]!
      const problem = (field: string, issue: string) => problems.push({ file: join(folder, file), field, issue })
      if ('issue' in read) {
        problem('', read.issue)
        continue
      }
      // The bytes read count, whatever the file said of its size.
      total += read.bytes.length
      if (total > MAX_FOLDER_BYTES) {
        problems.push({ file: folder, field: '', issue: `holds more than ${MAX_FOLDER_BYTES} bytes of recordings (the most --replay loads)` })
        return { recordings, problems, files: listed.files.length }
      }
      const loaded = yield* recordingOf(file, read.bytes)
      if ('issue' in loaded) problem(loaded.field, loaded.issue)
      else recordings.push(loaded)
    }
  }
  return { recordings, problems, files: listed.files.length }
}

/**
 * One file's bytes, parsed and checked; a problem never quotes them (they may be anything). On a
 * reload a large file is parsed in a worker thread, and the event loop serves requests before the
 * check (breathe).
 */
function* recordingOf(file: string, bytes: Buffer): Steps<Recording | { field: string; issue: string }> {
  const parsed = yield* parse(bytes)
  if ('error' in parsed)
    return {
      field: '',
      issue: parsed.error.name === 'WorkerError' ? `could not be parsed (${parsed.error.message})` : `is not valid JSON (${jsonErrorWhere(parsed.error)})`,
    }
  const { digest } = parsed
  yield* breathe()
  let checked: Checked
  try {
    checked = checkRecording(parsed.value)
  } catch {
    // A document nested past what the checks walk (a stack overflow): no recording writes one.
    return { field: '', issue: 'is nested too deeply to be a recording' }
  }
  if ('field' in checked) return { field: shownField(checked.field), issue: checked.issue }
  return { file, operation: checked.body.operation, body: checked.body, key: checked.key, digest, uses: 0 }
}

/** The most characters of a field's path a problem shows. */
const SHOWN_FIELD_CHARS = 120

/**
 * A field's path as a problem shows it: a key of the file's own (a property the format does not know)
 * is its content, so it is cut short and kept to printable characters (a terminal prints the start's error).
 */
function shownField(field: string): string {
  const printable = field.replace(/[^\x20-\x7e]/g, '?')
  return printable.length > SHOWN_FIELD_CHARS ? `${printable.slice(0, SHOWN_FIELD_CHARS)}…` : printable
}

/**
 * Where JSON.parse stopped, without its words: V8's message quotes the text around the error
 * (`Unexpected token 'r', "root:x:0:0:"... is not valid JSON`), and a file's text is never quoted.
 */
function jsonErrorWhere(error: { name: string; message: string }): string {
  const at = /\(line (\d+) column (\d+)\)/.exec(error.message)
  if (at) return `at line ${at[1]}, column ${at[2]}`
  if (/Unexpected end of JSON input/.test(error.message)) return 'it ends too soon'
  if (error.name === 'SyntaxError') return 'an unexpected character'
  return 'nested too deeply'
}

type Checked = { body: RecordingFile; key: string | null } | { field: string; issue: string }

/** A parsed file checked against the format, then for what its schema cannot say; with its key. */
export function checkRecording(value: unknown): Checked {
  if (isObject(value) && value.format !== RECORDING_FORMAT)
    return { field: 'format', issue: value.format === undefined ? 'is required' : `must be "${RECORDING_FORMAT}" (the format this emulator reads)` }
  const shape = checkFile(value)
  if (shape) return shape
  const body = value as RecordingFile
  const text = isTextOperation(body.operation)
  if (text && body.text === undefined) return { field: 'text', issue: `is required: the answer of a text operation (${body.operation})` }
  if (text && body.raw !== undefined) return { field: 'raw', issue: `is for other operations: ${body.operation} keeps its answer in \`text\`` }
  if (!text && body.raw === undefined) return { field: 'raw', issue: `is required: the answer of ${body.operation}` }
  if (!text && body.text !== undefined) return { field: 'text', issue: `is for text operations: ${body.operation} keeps its answer in \`raw\`` }
  const match = body.match && checkMatch(body.match, text)
  if (match) return match
  const answer = text ? checkText(body.text!) : checkRaw(body.raw!)
  if (answer) return answer
  if (body.request === undefined) return body.match ? { body, key: null } : { field: 'request', issue: 'is required (or a `match` that loosens the match)' }
  if (text) {
    const request = checkNormalText(body.request)
    if (request) return { field: request.field ? `request.${request.field}` : 'request', issue: request.issue }
    return { body, key: body.match ? null : textKey(body.request as NormalTextRequest) }
  }
  if (!isObject(body.request)) return { field: 'request', issue: `must be an object (the body of ${body.operation})` }
  return { body, key: body.match ? null : rawKey(body.operation, body.request) }
}

function checkMatch(match: RecordingMatch, text: boolean): { field: string; issue: string } | null {
  if (!text) {
    const conversational = TEXT_CONDITIONS.find((c) => match[c] !== undefined)
    if (conversational) return { field: `match.${conversational}`, issue: 'is for text operations only (another operation matches by `model` and `header`)' }
  }
  const bad = badRegex(match)
  return bad ? { field: `match.${bad.field}`, issue: `is not a valid regular expression: ${bad.issue}` } : null
}

function checkText(text: NonNullable<RecordingFile['text']>): { field: string; issue: string } | null {
  if (text.model.trim() === '') return { field: 'text.model', issue: 'must not be empty' }
  for (const [i, choice] of text.choices.entries()) {
    const at = `text.choices[${i}]`
    if (!FINISH_REASONS.includes(choice.finish_reason)) return { field: `${at}.finish_reason`, issue: `must be one of ${FINISH_REASONS.join(', ')}` }
    for (const [j, call] of (choice.tool_calls ?? []).entries()) {
      if (typeof call.arguments === 'string' && !isJsonText(call.arguments))
        return { field: `${at}.tool_calls[${j}].arguments`, issue: 'must be JSON text (or an object)' }
    }
  }
  return null
}

/**
 * Base64 as the format keeps bytes: the standard alphabet, padded. Not a regular expression: one of
 * repeated groups overflows the stack on a few megabytes (a raw answer near its bound). Node's decoder
 * skips whatever is no base64 (a space, a `=` inside) and takes the URL-safe alphabet: so the text is
 * standard base64 when it decodes to every byte its length promises and holds neither `-` nor `_`.
 */
function isBase64(text: string): boolean {
  if (text.length % 4 !== 0 || text.includes('-') || text.includes('_')) return false
  // In slices, so checking megabytes leaves small garbage; padding may only end the last one.
  for (let at = 0; at < text.length; at += BASE64_SLICE) {
    const slice = text.slice(at, at + BASE64_SLICE)
    const padding = at + BASE64_SLICE >= text.length ? (slice.endsWith('==') ? 2 : slice.endsWith('=') ? 1 : 0) : 0
    if (Buffer.from(slice, 'base64').length !== (slice.length / 4) * 3 - padding) return false
  }
  return true
}

/** Characters of base64 decoded at a time by isBase64 (a multiple of 4). */
const BASE64_SLICE = 64 * 1024
/** A media type as a header carries it: type/subtype and parameters, no control characters. */
const MEDIA_TYPE = /^[\w!#$&^.+-]+\/[\w!#$&^.+-]+(?:\s*;[\x20-\x7e]*)?$/

function checkRaw(raw: RecordedRaw): { field: string; issue: string } | null {
  if (raw.model.trim() === '') return { field: 'raw.model', issue: 'must not be empty' }
  if (!MEDIA_TYPE.test(raw.content_type)) return { field: 'raw.content_type', issue: 'must be a media type such as application/json or audio/mpeg' }
  if ((raw.json === undefined) === (raw.base64 === undefined)) return { field: 'raw', issue: 'must hold one of `json` (a JSON answer) or `base64` (bytes)' }
  if (raw.base64 !== undefined) {
    if (!isBase64(raw.base64)) return { field: 'raw.base64', issue: 'is not valid base64 (standard alphabet, padded)' }
    const bytes = (raw.base64.length / 4) * 3 - (raw.base64.endsWith('==') ? 2 : raw.base64.endsWith('=') ? 1 : 0)
    if (bytes > RAW_ANSWER_BYTES) return { field: 'raw.base64', issue: `holds ${bytes} bytes, more than the ${RAW_ANSWER_BYTES} a recording keeps` }
  }
  return null
}

function isJsonText(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

const textKey = (request: NormalTextRequest): string => JSON.stringify(canonicalText(request))
const rawKey = (operation: string, body: unknown): string => `${operation}\n${JSON.stringify(normalRawRequest(operation, body))}`

// ---- The loaded set --------------------------------------------------------------------------------

/** A recording of another operation that answers a request: its bytes or JSON, and what bills it. */
export interface RecordedRawAnswer {
  file: string
  raw: RecordedRaw
  /** Milliseconds the upstream took, where it was recorded. */
  latencyMs: number | null
  model: CatalogModel
  endpoints: readonly CatalogEndpoint[]
}

const remainingOf = (r: Recording): number | null => (r.body.times === undefined ? null : Math.max(0, r.body.times - r.uses))

/** The model a request names, from its body (null where it names none). */
const modelOf = (body: unknown): string | null => (isObject(body) && typeof body.model === 'string' ? body.model : null)

export class RecordingSet {
  #recordings: Recording[] = []
  #byFile = new Map<string, Recording>()

  get size(): number {
    return this.#recordings.length
  }

  /** Takes a newly loaded set; a file whose bytes did not change keeps its count of uses. */
  replace(recordings: Recording[]): void {
    for (const r of recordings) {
      const before = this.#byFile.get(r.file)
      if (before && before.digest === r.digest) r.uses = before.uses
    }
    this.#recordings = recordings
    this.#byFile = new Map(recordings.map((r) => [r.file, r]))
  }

  /** Every use given back (a reset of the emulator's state). */
  restoreUses(): void {
    for (const r of this.#recordings) r.uses = 0
  }

  /** The first text recording, in name order, with uses left, that answers `ask`. */
  findText(ask: TextAsk, header: string | null): Recording | null {
    if (this.#recordings.length === 0) return null
    let key: string | undefined
    let subject: FixtureSubject | undefined
    for (const r of this.#recordings) {
      if (!isTextOperation(r.operation) || remainingOf(r) === 0) continue
      if (r.key !== null) {
        key ??= JSON.stringify(normalTextRequest(ask))
        if (r.key === key) return r
      } else {
        subject ??= fixtureSubject(ask.candidates[0] ?? '', ask.messages, ask.tools, header)
        if (loosenedMatch(r.body.match!, subject, ask.messages.at(-1)?.role === 'tool')) return r
      }
    }
    return null
  }

  /** The first recording of `operation`, in name order, with uses left, that answers `body`. */
  findRaw(operation: RawOperation, body: unknown, header: string | null): Recording | null {
    if (this.#recordings.length === 0) return null
    let key: string | undefined
    for (const r of this.#recordings) {
      if (r.operation !== operation || remainingOf(r) === 0) continue
      if (r.key !== null) {
        key ??= rawKey(operation, body)
        if (r.key === key) return r
      } else if (loosenedMatch(r.body.match!, { model: modelOf(body) ?? '', lastUser: '', system: '', tools: [], header }, false)) {
        return r
      }
    }
    return null
  }

  /** Whether some text recording may answer a request for this model (one the catalog may lack). */
  answersModel(id: string): boolean {
    return this.#recordings.some(
      (r) =>
        isTextOperation(r.operation) &&
        (r.key !== null
          ? modelOf(r.body.request) === id
          : r.body.match!.model === undefined || conditionsMismatch({ model: r.body.match!.model }, subjectOfModel(id)) === null),
    )
  }

  usable(file: string): boolean {
    const r = this.#byFile.get(file)
    return r !== undefined && remainingOf(r) !== 0
  }

  use(file: string): void {
    const r = this.#byFile.get(file)
    if (r) r.uses++
  }

  list(): RecordingView[] {
    return this.#recordings.map((r) => ({
      file: r.file,
      operation: r.operation,
      model: r.body.text?.model ?? r.body.raw?.model ?? '',
      times: r.body.times ?? null,
      remaining: remainingOf(r),
      uses: r.uses,
      loosened: r.key === null,
    }))
  }
}

const subjectOfModel = (model: string): FixtureSubject => ({ model, lastUser: '', system: '', tools: [], header: null })

function loosenedMatch(match: RecordingMatch, subject: FixtureSubject, lastIsToolResult: boolean): boolean {
  if (match.tool_result !== undefined && match.tool_result !== lastIsToolResult) return false
  return conditionsMismatch(match, subject) === null
}

// ---- Models and endpoints ------------------------------------------------------------------------

const slug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'recorded'

/**
 * The model a recorded answer is billed through and the endpoints that may serve it: the catalog's
 * model of the recording (or else of the request), narrowed to the recorded provider's endpoints where
 * it has them; where the catalog has neither, a stand-in of the recorded model with one endpoint named
 * by the recorded provider, priced at nothing (the recorded cost is billed). Guardrails see that model
 * id and provider as any other: a rule that allows other models or providers refuses it, `zdr` refuses
 * it, and it is served in the US region only (the EU listener refuses it).
 */
export function servingModel(
  find: (id: string) => CatalogModel | undefined,
  operation: RecordedOperation,
  recorded: { model: string; provider: string | null },
  requested: string | null,
): { model: CatalogModel; endpoints: CatalogEndpoint[] } {
  const known = find(recorded.model) ?? (requested !== null ? find(requested) : undefined)
  if (known) {
    const wanted = recorded.provider?.toLowerCase()
    const own = wanted ? known.endpoints.filter((e) => e.provider_name.toLowerCase() === wanted || e.provider.toLowerCase() === wanted) : []
    return { model: known, endpoints: own.length > 0 ? own : known.endpoints }
  }
  const provider = recorded.provider ?? 'Recorded'
  const endpoint: CatalogEndpoint = {
    id: `recorded-${slug(provider)}-${slug(recorded.model)}`,
    provider: slug(provider),
    provider_name: provider,
    tag: slug(provider),
    quantization: null,
    context_length: 0,
    max_completion_tokens: null,
    max_prompt_tokens: null,
    pricing: { prompt: '0', completion: '0' },
    supported_parameters: [],
    status: 0,
    uptime_last_30m: null,
    uptime_last_5m: null,
    uptime_last_1d: null,
    supports_implicit_caching: false,
    latency_last_30m: null,
    throughput_last_30m: null,
    supports_tool_choice: { auto: true, function: true, none: true, required: true },
    zdr: false,
    regions: ['us'],
  }
  const output = isTextOperation(operation) ? 'text' : RAW_OUTPUT[operation]
  const model: CatalogModel = {
    id: recorded.model,
    canonical_slug: recorded.model,
    hugging_face_id: null,
    name: `${recorded.model} (recorded)`,
    created: 0,
    description: 'A model the catalog lacks, answered from a recording',
    context_length: 0,
    architecture: { modality: `text->${output}`, input_modalities: ['text'], output_modalities: [output], tokenizer: 'Other', instruct_type: null },
    pricing: { prompt: '0', completion: '0' },
    top_provider: { context_length: null, max_completion_tokens: null, is_moderated: false },
    per_request_limits: null,
    supported_parameters: [],
    default_parameters: null,
    supported_voices: null,
    knowledge_cutoff: null,
    expiration_date: null,
    categories: [],
    embedding_dimensions: null,
    endpoints: [endpoint],
  }
  return { model, endpoints: [endpoint] }
}

/** A recording's text answer, with the model and endpoints it is billed through. */
export function textAnswerOf(find: (id: string) => CatalogModel | undefined, recording: Recording, ask: TextAsk): RecordedTextAnswer {
  const text = recording.body.text!
  return { file: recording.file, text, ...servingModel(find, recording.operation, text, ask.candidates[0] ?? null) }
}

export function rawAnswerOf(find: (id: string) => CatalogModel | undefined, recording: Recording, body: unknown): RecordedRawAnswer {
  const raw = recording.body.raw!
  return { file: recording.file, raw, latencyMs: recording.body.recorded?.latency_ms ?? null, ...servingModel(find, recording.operation, raw, modelOf(body)) }
}

// ---- Watching the folder -------------------------------------------------------------------------

/** Changes to the folder are taken together once they have settled for this long. */
const RELOAD_DEBOUNCE_MS = 150

/** Calls `changed` once the folder's files have stopped changing; null where the folder cannot be watched. */
export function watchFolder(folder: string, changed: () => void, warn: (message: string) => void): { close(): void } | null {
  let timer: NodeJS.Timeout | null = null
  let watcher: FSWatcher
  try {
    watcher = watch(folder, { recursive: true, persistent: false }, () => {
      if (timer) clearTimeout(timer)
      timer = setTimeout(() => {
        timer = null
        changed()
      }, RELOAD_DEBOUNCE_MS)
      timer.unref()
    })
  } catch (error) {
    warn(`--replay ${folder}: changes will not be reloaded by themselves (${(error as Error).message}); POST /_emulator/api/recordings/reload reloads it`)
    return null
  }
  watcher.on('error', (error) => warn(`--replay ${folder}: stopped watching for changes (${error.message})`))
  return {
    close() {
      if (timer) clearTimeout(timer)
      watcher.close()
    },
  }
}
