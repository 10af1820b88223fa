// Files: where a request's files live (its workspace and storage), the shape it answers in, reading an
// upload's form as it arrives, keeping a file within the account's room (reserved from an upload's
// declared length before its body is read), and listing pages with the three cursor styles the
// document names (its own opaque `cursor`, OpenAI's `after`, Anthropic's `after_id`).
import type { FastifyRequest } from 'fastify'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { toIso } from '../../core/clock.ts'
import { ApiError, fieldError } from '../../core/errors.ts'
import type { Ids } from '../../core/ids.ts'
import { declaredLength } from '../../http/body-limits.ts'
import { readFormFile } from '../../http/form-file.ts'
import type { AuthContext } from '../caller.ts'
import type { EmulatorContext } from '../module.ts'
import { ownsWorkspace, workspaceOfKey } from '../organization/workspace-scope.ts'
import {
  accountStorageFull,
  emptyFile,
  fileNotFound,
  fileTooLarge,
  malformedForm,
  unsupportedCursor,
  unsupportedFileType,
  workspaceForbidden,
} from './files.errors.ts'
import type { FileRow, FileScope, FilesRepo, FileWithContent } from './files.repo.ts'
import {
  MAX_ACCOUNT_BYTES,
  MAX_ACCOUNT_FILES,
  MAX_FILE_BYTES,
  MAX_FILENAME_CHARS,
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
import { sniffFileType } from './files.sniff.ts'

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
 * The room of each account's uploads under way, taken before their bodies are read: an upload reserves
 * the bytes its declared length says (less the form around the file) and one file, until it is
 * answered, so parallel uploads cannot all pass the check and then be read whole only to be refused.
 * The bytes are checked again, exactly, when the file is kept (storeFile).
 */
export class UploadRoom {
  private readonly pending = new Map<string, { bytes: number; files: number }>()
  private readonly repo: FilesRepo

  constructor(repo: FilesRepo) {
    this.repo = repo
  }

  /**
   * Reserves room for an upload declaring `declared` bytes (NaN: none, a chunked body), or throws the
   * 413 of a full room. The answer gives the room back (once; later calls do nothing).
   */
  reserve(account: string, declared: number): () => void {
    // An undeclared or small upload reserves nothing but its file; storeFile counts its bytes.
    const bytes = Number.isFinite(declared) ? Math.max(0, Math.min(declared, MAX_FILE_BYTES) - FORM_FRAMING_BYTES) : 0
    const totals = this.repo.totals(account)
    const pending = this.pending.get(account) ?? { bytes: 0, files: 0 }
    if (totals.files + pending.files >= MAX_ACCOUNT_FILES || (bytes > 0 && totals.bytes + pending.bytes + bytes > MAX_ACCOUNT_BYTES))
      throw accountStorageFull(totals.bytes, bytes, MAX_ACCOUNT_BYTES, totals.files, MAX_ACCOUNT_FILES, pending.bytes, pending.files)
    this.pending.set(account, { bytes: pending.bytes + bytes, files: pending.files + 1 })
    let held = true
    return () => {
      if (!held) return
      held = false
      const now = this.pending.get(account)!
      if (now.files === 1) this.pending.delete(account)
      else this.pending.set(account, { bytes: now.bytes - bytes, files: now.files - 1 })
    }
  }
}

/**
 * Keeps an upload as storeFile does, in steps with a turn of the event loop between them (its type,
 * its base64, its row): each step of a 25 MB file holds the loop a while, and other requests go between.
 */
export async function keepUpload(ctx: EmulatorContext, scope: FileScope, upload: Upload): Promise<FileRow> {
  const mimeType = sniffFileType(upload.bytes)
  if (mimeType === null) throw unsupportedFileType()
  await nextTurn()
  const content = upload.bytes.toString('base64')
  await nextTurn()
  return storeFile(ctx, scope, { ...upload, downloadable: false, mimeType, content })
}

/**
 * Keeps a file in one transaction, within the account's room (bytes and count), and answers its row.
 * `mimeType` null: read from the bytes, and refused when they are of no type the gateway takes;
 * `content`: the bytes as base64, when already made.
 */
export function storeFile(
  ctx: EmulatorContext,
  scope: FileScope,
  file: { filename: string; bytes: Buffer; purpose: string; downloadable: boolean; mimeType?: string; content?: string },
): FileRow {
  const mimeType = file.mimeType ?? sniffFileType(file.bytes)
  if (mimeType === null) throw unsupportedFileType()
  const content = file.content ?? file.bytes.toString('base64')
  const repo = ctx.services.files
  return ctx.db
    .transaction((): FileRow => {
      const totals = repo.totals(scope.account_id)
      if (totals.files >= MAX_ACCOUNT_FILES || totals.bytes + file.bytes.length > MAX_ACCOUNT_BYTES)
        throw accountStorageFull(totals.bytes, file.bytes.length, MAX_ACCOUNT_BYTES, totals.files, MAX_ACCOUNT_FILES)
      const row: FileWithContent = {
        ...scope,
        id: fileIdOf(scope.provider, ctx.ids, ctx.ids.next(ID_KINDS[scope.provider].kind)),
        filename: file.filename,
        mime_type: mimeType,
        purpose: file.purpose,
        size_bytes: file.bytes.length,
        downloadable: file.downloadable ? 1 : 0,
        content,
        created_at: ctx.clock.now(),
      }
      repo.insert(row)
      const { content: _bytes, ...meta } = row
      return meta
    })
    .immediate()
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
