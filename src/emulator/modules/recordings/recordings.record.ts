// The recorder (--record <dir>): each successful upstream answer becomes one file in the folder,
// `<operation>-<12 hex>.json`, named by a hash of the request's normal form, so the same request
// recorded again overwrites its file (the folder holds the latest answer to each request). The file is
// pretty-printed JSON with its keys sorted at every level and a final newline, so a folder reads well
// in a diff; it is written to a temporary file and renamed, so a reader never sees half of one. A file
// that would hold a key or a token is not written at all (the request or the answer carried one).
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { sha256Hex } from '../../core/rng.ts'
import { compileCheck } from '../../http/validation.ts'
import type { EmulatorContext } from '../module.ts'
import { sortedKeys } from './recordings.normal.ts'
import { RECORDING_FORMAT, RecordingFile, type RecordedOperation, type RecordedRaw, type RecordedText } from './recordings.format.ts'

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

/**
 * Saves one answer in `dir` and returns the file's name; or null, with a warning, when it may not be
 * saved: it is no valid recording (a tool's name the format refuses, more choices than it keeps), or
 * its text holds one of `secrets` (the upstream key, the caller's key, the admin token) or any key of
 * the emulator's or the gateway's form. A failed write is a warning too: the caller has its answer.
 */
export async function saveRecording(
  ctx: EmulatorContext,
  dir: string,
  recorded: Recorded,
  secrets: readonly (string | null | undefined)[],
): Promise<string | null> {
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
  if (problem) {
    ctx.warn(`record: the ${recorded.operation} answer was relayed but not saved: \`${problem.field}\` ${problem.issue}`)
    return null
  }
  const text = stableJson(file)
  if (KEY_FORMS.test(text) || secrets.some((secret) => typeof secret === 'string' && secret.length >= 8 && text.includes(secret))) {
    ctx.warn(`record: the ${recorded.operation} answer was relayed but not saved as ${name}: its request or answer holds a key or a token`)
    return null
  }
  const temporary = join(dir, `.${name}.${process.pid}-${++writes}.tmp`)
  try {
    await mkdir(dir, { recursive: true })
    await writeFile(temporary, text, { mode: 0o644 })
    await rename(temporary, join(dir, name))
    return name
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined)
    ctx.warn(`record: could not save ${name} in ${dir}: ${error instanceof Error ? error.message : String(error)}`)
    return null
  }
}
