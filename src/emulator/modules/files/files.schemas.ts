// The Files API: uploads kept per workspace, listed, read, downloaded (server-side files only, as the
// real gateway has it) and deleted. Each answer comes in the shape the request negotiates: OpenRouter's
// (the default), OpenAI's or Anthropic's, told apart by `_shape` as the real document has it.
import { Type, type Static } from 'typebox'
import { ErrorEnvelope, StringEnum } from '../../http/schemas.ts'

/** The most bytes one file may hold here (the real gateway takes 100 MB). */
export const MAX_FILE_BYTES = 25 * 1024 * 1024
/** The most bytes one account's files may hold together. */
export const MAX_ACCOUNT_BYTES = 100 * 1024 * 1024
/** The most files one account may hold. */
export const MAX_ACCOUNT_FILES = 10_000
/**
 * The most bytes, and files, every account's files hold together: five accounts full. The bytes are
 * kept as base64 text in the database (a third more), in memory with `--db :memory:`.
 */
export const MAX_TOTAL_FILE_BYTES = 512 * 1024 * 1024
export const MAX_TOTAL_FILES = 100_000
/**
 * The bytes of one part of a file's content (its last part may hold fewer): 1 MiB less one, a multiple
 * of 3, so each part is base64 without padding and the parts join into the file's base64. A part is
 * written (and read) per turn of the event loop.
 */
export const FILE_PART_BYTES = 1_048_575
/** The base64 characters of a whole part. */
export const FILE_PART_CHARS = (FILE_PART_BYTES / 3) * 4
/** The longest file name kept. */
export const MAX_FILENAME_CHARS = 255

export const FILE_PROVIDERS = ['openai', 'anthropic'] as const
export type FileProvider = (typeof FILE_PROVIDERS)[number]
/** Where a file is kept: OpenRouter's storage, or (with `provider`) the named provider's. */
export type FileStorage = 'openrouter' | FileProvider
export type FileShape = FileStorage

export const OPENAI_PURPOSES = [
  'assistants',
  'batch',
  'fine-tune',
  'vision',
  'user_data',
  'evals',
  'assistants_output',
  'batch_output',
  'fine-tune-results',
] as const
export type OpenAIPurpose = (typeof OPENAI_PURPOSES)[number]

const Provider = StringEnum(FILE_PROVIDERS, {
  description: "Keep or read the file in the named provider's storage (and answer in its shape); left out, OpenRouter's",
})
const WorkspaceId = Type.String({ format: 'uuid', description: "The workspace; the key's (or the account's default) when left out" })

export const ScopeQuery = Type.Object({ workspace_id: Type.Optional(WorkspaceId), provider: Type.Optional(Provider) })
export type ScopeQuery = Static<typeof ScopeQuery>

export const ListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Files to return (1-1000; 100 when left out)' })),
  cursor: Type.Optional(Type.String({ maxLength: 512, description: 'The `cursor` of the previous page' })),
  after: Type.Optional(Type.String({ maxLength: 256, description: 'OpenAI-style: list after this file id' })),
  after_id: Type.Optional(Type.String({ maxLength: 256, description: 'Anthropic-style: list after this file id' })),
  before_id: Type.Optional(Type.String({ maxLength: 256, description: "Anthropic-style reverse cursor: not supported by OpenRouter's storage" })),
  order: Type.Optional(StringEnum(['asc', 'desc'] as const, { description: "Only `asc` is supported by OpenRouter's storage" })),
  ...ScopeQuery.properties,
})
export type ListQuery = Static<typeof ListQuery>

export const FileParams = Type.Object({ file_id: Type.String({ minLength: 1, maxLength: 256 }) })

/** The form as the document shows it; it is read and checked in the handler. */
export const UploadRequest = {
  content: {
    'multipart/form-data': {
      schema: Type.Object({
        file: Type.String({
          format: 'binary',
          description: `The file, at most ${MAX_FILE_BYTES / 1024 / 1024} MB and not empty; its type is read from its bytes`,
        }),
        purpose: Type.Optional(StringEnum(OPENAI_PURPOSES, { description: 'OpenAI-style purpose, shown in the OpenAI shape (`user_data` when left out)' })),
      }),
    },
  },
}

// ---- Answers -------------------------------------------------------------------------------------

const Id = Type.String({ description: 'The file (`or_file_...`; `file-...` or `file_...` in a provider storage)' })

const AnthropicLike = {
  id: Id,
  type: Type.Literal('file'),
  filename: Type.String(),
  mime_type: Type.String({ description: 'Read from the bytes' }),
  size_bytes: Type.Integer(),
  created_at: Type.String({ description: 'ISO 8601' }),
  downloadable: Type.Boolean({ description: 'Only files created server-side are; uploads are not' }),
}

export const OpenRouterFile = Type.Object({ _shape: Type.Literal('openrouter'), ...AnthropicLike })
export const AnthropicFile = Type.Object({ _shape: Type.Literal('anthropic'), ...AnthropicLike })
export const OpenAIFile = Type.Object({
  _shape: Type.Literal('openai'),
  id: Id,
  object: Type.Literal('file'),
  bytes: Type.Integer(),
  created_at: Type.Integer({ description: 'Unix seconds' }),
  filename: Type.String(),
  purpose: StringEnum(OPENAI_PURPOSES),
  status: Type.Literal('processed'),
})
export type OpenRouterFile = Static<typeof OpenRouterFile>
export type AnthropicFile = Static<typeof AnthropicFile>
export type OpenAIFile = Static<typeof OpenAIFile>
export const FileObject = Type.Union([OpenRouterFile, OpenAIFile, AnthropicFile], { description: 'The file, in the negotiated shape' })
export type FileObject = Static<typeof FileObject>

const Page = {
  has_more: Type.Boolean(),
  first_id: Type.Union([Type.String(), Type.Null()]),
  last_id: Type.Union([Type.String(), Type.Null()]),
}
export const FileList = Type.Union(
  [
    Type.Object({
      _shape: Type.Literal('openrouter'),
      data: Type.Array(OpenRouterFile),
      ...Page,
      cursor: Type.Union([Type.String(), Type.Null()], { description: 'For the next page; null when there is none' }),
    }),
    Type.Object({ _shape: Type.Literal('openai'), object: Type.Literal('list'), data: Type.Array(OpenAIFile), ...Page }),
    Type.Object({ _shape: Type.Literal('anthropic'), data: Type.Array(AnthropicFile), ...Page }),
  ],
  { description: 'A page of files, oldest first, in the negotiated shape' },
)
export type FileList = Static<typeof FileList>

export const FileDeleted = Type.Union(
  [
    Type.Object({ _shape: Type.Literal('openrouter'), id: Id, type: Type.Literal('file_deleted') }),
    Type.Object({ _shape: Type.Literal('openai'), id: Id, object: Type.Literal('file'), deleted: Type.Literal(true) }),
    Type.Object({ _shape: Type.Literal('anthropic'), id: Id, type: Type.Literal('file_deleted') }),
  ],
  { description: 'Deleted, in the negotiated shape' },
)
export type FileDeleted = Static<typeof FileDeleted>

const errors = { '4xx': ErrorEnvelope }
export const FileResponse = { 200: FileObject, ...errors }
export const FileListResponse = { 200: FileList, ...errors }
export const FileDeletedResponse = { 200: FileDeleted, ...errors }
export const FileContentResponse = {
  200: {
    description: 'The bytes as they were created, as an attachment',
    content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
  },
  ...errors,
}

// ---- Admin ---------------------------------------------------------------------------------------

/** Base64 characters of the largest file. */
export const MAX_FILE_BASE64_CHARS = Math.ceil(MAX_FILE_BYTES / 3) * 4

export const ServerFileBody = Type.Object({
  filename: Type.String({ minLength: 1, maxLength: MAX_FILENAME_CHARS }),
  // Its length is bounded as it arrives (files.admin.ts), not here: the validator counts the characters
  // of 33 MB of base64 one by one (150 ms), and so does a minLength.
  content_base64: Type.String({ description: `The bytes, base64 (standard, padded): not empty, at most ${MAX_FILE_BASE64_CHARS} characters` }),
  workspace_id: Type.Optional(WorkspaceId),
  provider: Type.Optional(Provider),
})
export type ServerFileBody = Static<typeof ServerFileBody>
