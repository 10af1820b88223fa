// Files: where a request's files live (its workspace and storage), the shape it answers in, reading an
// upload's form as it arrives, reading its type (in the media pool when that takes the whole file),
// keeping a file within the account's room and the emulator's (reserved from an upload's declared
// length before its body is read), and listing pages with the three cursor styles the document names
// (its own opaque `cursor`, OpenAI's `after`, Anthropic's `after_id`).
import type { FastifyRequest } from 'fastify'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { toIso } from '../../core/clock.ts'
import { ApiError, fieldError } from '../../core/errors.ts'
import type { Ids } from '../../core/ids.ts'
import { declaredLength } from '../../http/body-limits.ts'
import { readFormFile } from '../../http/form-file.ts'
import { sniffHead } from '../../media/file-sniff.ts'
import type { JobResult } from '../../media/jobs.ts'
import type { AuthContext } from '../caller.ts'
import type { EmulatorContext } from '../module.ts'
import { ownsWorkspace, workspaceOfKey } from '../organization/organization-workspace.service.ts'
import {
  accountStorageFull,
  emptyFile,
  emulatorStorageFull,
  fileNotFound,
  fileTooLarge,
  malformedForm,
  unsupportedCursor,
  unsupportedFileType,
  workspaceForbidden,
} from './files.errors.ts'
import { writeFile, type NewFile } from './files-content.service.ts'
import type { FileRow, FileScope, FilesRepo } from './files.repo.ts'
import {
  FILE_PART_CHARS,
  MAX_ACCOUNT_BYTES,
  MAX_ACCOUNT_FILES,
  MAX_FILE_BYTES,
  MAX_FILENAME_CHARS,
  MAX_TOTAL_FILE_BYTES,
  MAX_TOTAL_FILES,
  OPENAI_PURPOSES,
  type FileDeleted,
  type FileList,
  type FileObject,
  type FileShape,
  type FileStorage,
  type ListQuery,
  type OpenAIFile,
  type OpenAIPurpose,
  type OpenRouterFile,
  type ScopeQuery,
} from './files.schemas.ts'

/** Each storage mints its own kind of id: OpenRouter's `or_file_...`, and ids like the providers' own. */
const ID_KINDS: Record<FileStorage, { kind: string; prefix: string }> = {
  openrouter: { kind: 'file', prefix: 'or_file_' },
  openai: { kind: 'openai-file', prefix: 'file-' },
  anthropic: { kind: 'anthropic-file', prefix: 'file_' },
}

export const fileIdOf = (storage: FileStorage, ids: Ids, label: string): string => ID_KINDS[storage].prefix + ids.generation(label)

export const fileIdKinds = (): Array<{ storage: FileStorage; kind: string }> =>
  (Object.keys(ID_KINDS) as FileStorage[]).map((storage) => ({ storage, kind: ID_KINDS[storage].kind }))

/** Padded standard base64, as files' bytes are kept and sent to the admin API. */
export const isBase64 = (text: string): boolean => text.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(text)

const BASE64_RUN = /^[A-Za-z0-9+/]*$/
const BASE64_END = /^[A-Za-z0-9+/]*={0,2}$/

/**
 * The bytes of padded standard base64 (isBase64), or null when it is not: checked and decoded a part's
 * worth at a time with a turn of the event loop between, since a 25 MB file's 33 MB of base64 takes
 * 300 ms to check and decode whole.
 */
export async function decodeBase64(text: string): Promise<Buffer | null> {
  if (text.length % 4 !== 0) return null
  const bytes = Buffer.allocUnsafe(Buffer.byteLength(text, 'base64'))
  let written = 0
  for (let at = 0; at < text.length; at += FILE_PART_CHARS) {
    if (at > 0) await nextTurn()
    const slice = text.slice(at, at + FILE_PART_CHARS)
    if (!(at + FILE_PART_CHARS >= text.length ? BASE64_END : BASE64_RUN).test(slice)) return null
    written += bytes.write(slice, written, 'base64')
  }
  return written === bytes.length ? bytes : null
}

/** The account, workspace and storage a request's files are in. */
export function scopeOf(ctx: EmulatorContext, caller: AuthContext, query: ScopeQuery): FileScope {
  const given = query.workspace_id
  // The document declares no 404 for a workspace on every file operation, but a 403 on each.
  if (given !== undefined && !ownsWorkspace(ctx, caller.account.id, given)) throw workspaceForbidden(given)
  return { account_id: caller.account.id, workspace_id: given ?? workspaceOfKey(ctx, caller), provider: query.provider ?? 'openrouter' }
}

/**
 * The shape an answer takes: a provider's storage answers in that provider's shape; otherwise a client
 * that speaks Anthropic's API (it sends `anthropic-version`) gets Anthropic's, and anyone else OpenRouter's.
 */
export function shapeOf(request: FastifyRequest, query: ScopeQuery): FileShape {
  if (query.provider) return query.provider
  return request.headers['anthropic-version'] === undefined ? 'openrouter' : 'anthropic'
}

const openAIView = (row: FileRow): OpenAIFile => ({
  _shape: 'openai',
  id: row.id,
  object: 'file',
  bytes: row.size_bytes,
  created_at: Math.floor(row.created_at / 1000),
  filename: row.filename,
  purpose: row.purpose as OpenAIPurpose,
  status: 'processed',
})

export function anthropicLikeView<Shape extends 'openrouter' | 'anthropic'>(row: FileRow, shape: Shape): { _shape: Shape } & Omit<OpenRouterFile, '_shape'> {
  return {
    _shape: shape,
    id: row.id,
    type: 'file',
    filename: row.filename,
    mime_type: row.mime_type,
    size_bytes: row.size_bytes,
    created_at: toIso(row.created_at),
    downloadable: row.downloadable === 1,
  }
}

export const fileView = (row: FileRow, shape: FileShape): FileObject => (shape === 'openai' ? openAIView(row) : anthropicLikeView(row, shape))

export const deletedView = (id: string, shape: FileShape): FileDeleted =>
  shape === 'openai' ? { _shape: 'openai', id, object: 'file', deleted: true } : { _shape: shape, id, type: 'file_deleted' }

export function requireFile(repo: FilesRepo, scope: FileScope, id: string): FileRow {
  const row = repo.get(scope, id)
  if (!row) throw fileNotFound(id)
  return row
}

// ---- Uploads -------------------------------------------------------------------------------------

/** A form's bounds: one file, a few short fields. */
const FORM_LIMITS = { fileSize: MAX_FILE_BYTES, files: 1, fields: 8, parts: 16, fieldSize: 1024, fieldNameSize: 100, headerPairs: 100 }

/**
 * What a form takes around its file (boundaries, part headers, a `purpose`): a few hundred bytes from
 * the clients, 4 KiB allowed. An upload's declared length less this is what it reserves of the room.
 */
export const FORM_FRAMING_BYTES = 4 * 1024

export interface Upload {
  filename: string
  bytes: Buffer
  purpose: OpenAIPurpose
}

function formError(error: unknown): ApiError {
  if (error instanceof ApiError) return error
  const code = (error as { code?: unknown }).code
  if (code === 'FST_REQ_FILE_TOO_LARGE') return fileTooLarge(MAX_FILE_BYTES)
  if (code === 'FST_FILES_LIMIT') return fieldError('file', 'must be one file: the form holds more')
  if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') return malformedForm(`it has more than ${FORM_LIMITS.fields} fields`)
  if (code === 'FST_PROTO_VIOLATION') return malformedForm('a field is named like a property of every object')
  return malformedForm(error instanceof Error ? error.message : String(error))
}

/**
 * Reads the form as it arrives: its one `file` (named, not empty, within bounds, held once in a buffer
 * the size the request declares) and an optional OpenAI `purpose`; other fields are ignored.
 */
export async function readUpload(request: FastifyRequest): Promise<Upload> {
  let file: { filename: string; bytes: Buffer } | undefined
  let purpose: OpenAIPurpose = 'user_data'
  try {
    for await (const part of request.parts({ limits: FORM_LIMITS })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw fieldError(part.fieldname, 'is a file, but the only file of this form is `file`')
        const bytes = await readFormFile(part.file, MAX_FILE_BYTES, declaredLength(request.headers))
        if (bytes === null) throw fileTooLarge(MAX_FILE_BYTES)
        file = { filename: part.filename, bytes }
      } else if (part.fieldname === 'file') {
        throw fieldError('file', 'must be a file part (with a filename), not a text field')
      } else if (part.fieldname === 'purpose') {
        if (part.valueTruncated || !(OPENAI_PURPOSES as readonly unknown[]).includes(part.value))
          throw fieldError('purpose', `must be one of ${OPENAI_PURPOSES.join(', ')}`)
        purpose = part.value as OpenAIPurpose
      }
    }
  } catch (error) {
    throw formError(error)
  }
  if (!file) throw fieldError('file', 'is required')
  if (file.filename.length > MAX_FILENAME_CHARS) throw fieldError('file', `has a name longer than ${MAX_FILENAME_CHARS} characters`)
  if (file.bytes.length === 0) throw emptyFile()
  return { filename: file.filename, bytes: file.bytes, purpose }
}

/**
 * The room of the uploads under way, taken before their bodies are read: an upload reserves the bytes
 * its declared length says (less the form around the file) and one file, until it is answered, in its
 * account's room and in the emulator's (every account's together), so parallel uploads cannot all pass
 * the check and then be read whole only to be refused. The bytes are checked again, exactly, in the
 * transaction that makes the file visible (keepFile).
 */
export class UploadRoom {
  private readonly pending = new Map<string, { bytes: number; files: number }>()
  private readonly pendingAll = { bytes: 0, files: 0 }
  private readonly repo: FilesRepo

  constructor(repo: FilesRepo) {
    this.repo = repo
  }

  /**
   * Reserves room for an upload declaring `declared` bytes (NaN: none, a chunked body), or throws the
   * 413 of a full room. The answer gives the room back (once; later calls do nothing).
   */
  reserve(account: string, declared: number): () => void {
    // An undeclared or small upload reserves nothing but its file; keepFile counts its bytes.
    const bytes = Number.isFinite(declared) ? Math.max(0, Math.min(declared, MAX_FILE_BYTES) - FORM_FRAMING_BYTES) : 0
    const totals = this.repo.totals(account)
    const pending = this.pending.get(account) ?? { bytes: 0, files: 0 }
    if (totals.files + pending.files >= MAX_ACCOUNT_FILES || (bytes > 0 && totals.bytes + pending.bytes + bytes > MAX_ACCOUNT_BYTES))
      throw accountStorageFull({
        usedBytes: totals.bytes,
        fileBytes: bytes,
        limitBytes: MAX_ACCOUNT_BYTES,
        files: totals.files,
        limitFiles: MAX_ACCOUNT_FILES,
        pendingBytes: pending.bytes,
        pendingFiles: pending.files,
      })
    const all = this.repo.totalsAll()
    const { bytes: allPending, files: allPendingFiles } = this.pendingAll
    if (all.files + allPendingFiles >= MAX_TOTAL_FILES || (bytes > 0 && all.bytes + allPending + bytes > MAX_TOTAL_FILE_BYTES))
      throw emulatorStorageFull({
        usedBytes: all.bytes,
        fileBytes: bytes,
        limitBytes: MAX_TOTAL_FILE_BYTES,
        files: all.files,
        limitFiles: MAX_TOTAL_FILES,
        pendingBytes: allPending,
        pendingFiles: allPendingFiles,
      })
    this.pending.set(account, { bytes: pending.bytes + bytes, files: pending.files + 1 })
    this.pendingAll.bytes += bytes
    this.pendingAll.files++
    let held = true
    return () => {
      if (!held) return
      held = false
      const now = this.pending.get(account)!
      if (now.files === 1) this.pending.delete(account)
      else this.pending.set(account, { bytes: now.bytes - bytes, files: now.files - 1 })
      this.pendingAll.bytes -= bytes
      this.pendingAll.files--
    }
  }
}

/**
 * A file's type read from its bytes (null: none the gateway takes). What the first bytes say is read
 * here; a ZIP's directory or a text's structure, which take all of them, in the media pool (a 24 MB
 * text takes a few hundred ms), in the account's lane: a full lane is the media queue's 429.
 */
export async function sniffUpload(ctx: EmulatorContext, accountId: string, bytes: Buffer): Promise<string | null> {
  const head = sniffHead(bytes)
  if (head !== undefined) return head
  const result = await ctx.media.reserve(accountId).run({ kind: 'file-sniff', bytes })
  return (result as Extract<JobResult, { kind: 'file-sniff' }>).type
}

/** Keeps an upload: its type from its bytes (refused when the gateway takes none), then the file (keepFile). */
export async function keepUpload(ctx: EmulatorContext, scope: FileScope, upload: Upload): Promise<FileRow> {
  const mimeType = await sniffUpload(ctx, scope.account_id, upload.bytes)
  if (mimeType === null) throw unsupportedFileType()
  return keepFile(ctx, scope, { ...upload, downloadable: false, mimeType })
}

/** Refuses a file of `bytes` bytes that the account's room, or the emulator's, cannot take. */
function checkRoom(repo: FilesRepo, accountId: string, bytes: number): void {
  const totals = repo.totals(accountId)
  if (totals.files >= MAX_ACCOUNT_FILES || totals.bytes + bytes > MAX_ACCOUNT_BYTES)
    throw accountStorageFull({ usedBytes: totals.bytes, fileBytes: bytes, limitBytes: MAX_ACCOUNT_BYTES, files: totals.files, limitFiles: MAX_ACCOUNT_FILES })
  const all = repo.totalsAll()
  if (all.files >= MAX_TOTAL_FILES || all.bytes + bytes > MAX_TOTAL_FILE_BYTES)
    throw emulatorStorageFull({ usedBytes: all.bytes, fileBytes: bytes, limitBytes: MAX_TOTAL_FILE_BYTES, files: all.files, limitFiles: MAX_TOTAL_FILES })
}

/**
 * Keeps a file within the account's room and the emulator's (bytes and count), a part of its bytes per
 * turn of the event loop, visible all at once when its row is written (files-content.service.ts), and answers
 * its row. The room is checked where the id is minted and again where the row is written.
 */
export function keepFile(ctx: EmulatorContext, scope: FileScope, file: NewFile): Promise<FileRow> {
  const repo = ctx.services.files
  const size = file.bytes.length
  return writeFile(ctx, scope, file, {
    inRoom: () => {
      checkRoom(repo, scope.account_id, size)
      return fileIdOf(scope.provider, ctx.ids, ctx.ids.next(ID_KINDS[scope.provider].kind))
    },
    visible: (id) => {
      checkRoom(repo, scope.account_id, size)
      const row: FileRow = {
        ...scope,
        id,
        filename: file.filename,
        mime_type: file.mimeType,
        purpose: file.purpose,
        size_bytes: size,
        downloadable: file.downloadable ? 1 : 0,
        created_at: ctx.clock.now(),
      }
      repo.insert(row)
      return row
    },
  })
}

// ---- Listing -------------------------------------------------------------------------------------

const DEFAULT_LIMIT = 100

/** The opaque cursor of the real gateway: base64 of `{"cursor":"<last id>"}`. */
const encodeCursor = (id: string): string => Buffer.from(JSON.stringify({ cursor: id })).toString('base64')

function decodeCursor(cursor: string): string {
  let decoded: unknown
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64').toString('utf8'))
  } catch {
    decoded = undefined
  }
  const id = (decoded as { cursor?: unknown } | undefined)?.cursor
  if (typeof id !== 'string') throw unsupportedCursor('cursor', 'is not a cursor this API gave: pass the `cursor` of the previous page as it came')
  return id
}

export function listFiles(repo: FilesRepo, scope: FileScope, query: ListQuery, shape: FileShape): FileList {
  if (query.before_id !== undefined) throw unsupportedCursor('before_id', 'is not supported: list forwards with `after_id`')
  if (query.order === 'desc') throw unsupportedCursor('order', 'must be asc: only ascending order is supported')
  const given = (['cursor', 'after', 'after_id'] as const).filter((name) => query[name] !== undefined)
  if (given.length > 1) throw unsupportedCursor(given[1]!, `cannot be combined with \`${given[0]}\`: pass one cursor`)
  const field = given[0]
  let after: { created_at: number; rowid: number } | undefined
  if (field !== undefined) {
    const id = field === 'cursor' ? decodeCursor(query.cursor!) : query[field]!
    after = repo.position(scope, id)
    if (!after) throw unsupportedCursor(field, `names no file of this workspace (${id})`)
  }
  const limit = query.limit ?? DEFAULT_LIMIT
  const rows = repo.page(scope, after, limit + 1)
  const hasMore = rows.length > limit
  const data = rows.slice(0, limit)
  const page = { has_more: hasMore, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null }
  if (shape === 'openai') return { _shape: 'openai', object: 'list', data: data.map(openAIView), ...page }
  if (shape === 'anthropic') return { _shape: 'anthropic', data: data.map((r) => anthropicLikeView(r, 'anthropic')), ...page }
  return {
    _shape: 'openrouter',
    data: data.map((r) => anthropicLikeView(r, 'openrouter')),
    ...page,
    cursor: hasMore && page.last_id !== null ? encodeCursor(page.last_id) : null,
  }
}

/** `Content-Disposition` for a download: always an attachment, its name safe in a header and whole in `filename*`. */
export function attachment(filename: string): string {
  const plain = filename.replace(/[^\x20-\x7e]|["\\]/g, '_')
  return `attachment; filename="${plain}"; filename*=UTF-8''${encodeURIComponent(filename)}`
}
