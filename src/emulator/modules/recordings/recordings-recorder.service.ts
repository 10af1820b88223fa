// The recorder (--record <dir>): each successful upstream answer becomes one file in the folder,
// `<operation>-<12 hex>.json`, named by a hash of the request's normal form, so the same request
// recorded again overwrites its file (the folder holds the latest answer to each request). The file is
// pretty-printed JSON with its keys sorted at every level and a final newline, so a folder reads well
// in a diff; it is written to a temporary file and renamed, so a reader never sees half of one. A file
// that would hold a key or a token is not written at all (the request or the answer carried one).
//
// Nothing written here can be refused by --replay: a file is checked by the reader's own check and
// kept within the reader's bounds (its size, the folder's files and bytes: recordings-files.service.ts), or
// it is not written, and the caller is told why in the words the journal and the log use.
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { sha256Hex } from '../../core/rng.ts'
import { compileCheck } from '../../http/validation.ts'
import type { EmulatorContext } from '../module.ts'
import { MAX_FILE_BYTES, MAX_FILES, MAX_FOLDER_BYTES, tallyFolder } from './recordings-files.service.ts'
import { sortedKeys } from './recordings-normal.service.ts'
import { RECORDING_FORMAT, RecordingFile, type RecordedOperation, type RecordedRaw, type RecordedText } from './recordings-format.service.ts'
import { checkRecording } from './recordings-replay.service.ts'

/** What is saved of one answer: what it answered and what it said; the writer adds the rest. */
export interface Recorded {
  operation: RecordedOperation
  /** The request in normal form (text operations) or its normal body (the others). */
  request: unknown
  answer: { text: RecordedText } | { raw: RecordedRaw }
  /** The upstream's origin (never its key or a path with a secret in it). */
  upstream: string
  latencyMs: number
}

/** The key forms of the emulator and of the real gateway, wherever they appear in a text. */
const KEY_FORMS = /sk-gw-v1-[0-9a-f]{16,}|sk-or-v1-[0-9a-f]{16,}/i

/** JSON with the keys of every object in code-point order, indented by two spaces, with a final newline. */
export function stableJson(value: unknown): string {
  return `${JSON.stringify(sortedKeys(value), null, 2)}\n`
}

/** The file a request's answer is saved in: its operation and the first 12 hex of the SHA-256 of its normal form (keys sorted). */
export const recordingName = (operation: RecordedOperation, request: unknown): string =>
  `${operation}-${sha256Hex(JSON.stringify(sortedKeys(request))).slice(0, 12)}.json`

let checkFile: ReturnType<typeof compileCheck> | undefined

/** Temporary files get a name of their own per write, so two writes of the same file never share one. */
let writes = 0

/** Where an answer went: the file it was saved as, or why it was not (a sentence for the journal and the log). */
export type Saved = { file: string } | { notSaved: string }

/** The log's line for an answer relayed and not saved: the journal says the same reason. */
export function notSavedWarning(ctx: EmulatorContext, operation: RecordedOperation, reason: string): { notSaved: string } {
  ctx.warn(`record: the ${operation} answer was relayed but not saved: ${reason}`)
  return { notSaved: reason }
}

/** Saves in one folder run one after another: each sees the folder as the one before left it. */
const turns = new Map<string, Promise<unknown>>()

function inTurn<T>(dir: string, save: () => Promise<T>): Promise<T> {
  const run = (turns.get(dir) ?? Promise.resolve()).then(save)
  const settled = run.catch(() => undefined)
  turns.set(dir, settled)
  void settled.then(() => {
    if (turns.get(dir) === settled) turns.delete(dir)
  })
  return run
}

/**
 * Saves one answer in `dir` and returns the file's name; or, with a warning, why it may not be saved:
 * it is no valid recording (a tool's name the format refuses, more choices than it keeps, anything
 * --replay would refuse), its file would be larger than a recording may be or carry the folder past
 * what --replay loads, or its text holds one of `secrets` (the upstream key, the caller's key, the
 * admin token) or any key of the emulator's or the gateway's form. A failed write is a reason too:
 * the caller has its answer.
 */
export async function saveRecording(ctx: EmulatorContext, dir: string, recorded: Recorded, secrets: readonly (string | null | undefined)[]): Promise<Saved> {
  const notSaved = (reason: string) => notSavedWarning(ctx, recorded.operation, reason)
  const file: RecordingFile = {
    format: RECORDING_FORMAT,
    operation: recorded.operation,
    request: recorded.request,
    ...recorded.answer,
    recorded: { at: ctx.clock.nowIso(), upstream: recorded.upstream, latency_ms: Math.round(recorded.latencyMs) },
  }
  const name = recordingName(recorded.operation, recorded.request)
  checkFile ??= compileCheck(RecordingFile)
  const problem = checkFile(file)
  if (problem) return notSaved(`\`${problem.field}\` ${problem.issue}`)
  let text: string
  let size: number
  let refused: ReturnType<typeof checkRecording>
  try {
    text = stableJson(file)
    size = Buffer.byteLength(text)
    if (size > MAX_FILE_BYTES) return notSaved(`its recording would be ${size} bytes, more than the ${MAX_FILE_BYTES} a recording may be`)
    // The reader's own check, on the text as written: what --replay would say of this file.
    refused = checkRecording(JSON.parse(text))
  } catch {
    // Nested past what the writer and the checks walk (a stack overflow): the answer has gone out.
    return notSaved(`its request or answer is nested too deeply for a recording (${name} is not written)`)
  }
  if (KEY_FORMS.test(text) || secrets.some((secret) => typeof secret === 'string' && secret.length >= 8 && text.includes(secret)))
    return notSaved(`its request or answer holds a key or a token (${name} is not written)`)
  if ('field' in refused) return notSaved(`\`${refused.field}\` ${refused.issue} (--replay would refuse ${name})`)
  return inTurn(dir, async () => {
    const tally = await tallyFolder(dir, name)
    const files = tally.files + (tally.sizeOf === null ? 1 : 0)
    if (files > MAX_FILES) return notSaved(`the folder would hold ${files} recordings, more than the ${MAX_FILES} --replay loads`)
    const bytes = tally.bytes - (tally.sizeOf ?? 0) + size
    if (bytes > MAX_FOLDER_BYTES) return notSaved(`the folder's recordings would be ${bytes} bytes, more than the ${MAX_FOLDER_BYTES} --replay loads`)
    const temporary = join(dir, `.${name}.${process.pid}-${++writes}.tmp`)
    try {
      await mkdir(dir, { recursive: true })
      await writeFile(temporary, text, { mode: 0o644 })
      await rename(temporary, join(dir, name))
      return { file: name }
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined)
      return notSaved(`${name} could not be written in ${dir}: ${error instanceof Error ? error.message : String(error)}`)
    }
  })
}
