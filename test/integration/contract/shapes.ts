// What a response must look like to pass for the real service's: the real gateway's OpenAPI document
// (JSON Schema 2020-12, references resolved by Ajv inside the document) for /api/v1, and the video
// vendor's documented shapes, reasons and messages (real-services.md, part A) for the router.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import yaml from 'js-yaml'

/** The reference documents live beside the checkout (../shared), not in the package. */
export const REAL_DOCUMENT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/docs/reference/openapi/real-gateway.openapi.yaml')
export const hasRealDocument = existsSync(REAL_DOCUMENT)
// Said where the run shows it (the file's stderr), not only in a skipped suite's name.
if (!hasRealDocument)
  console.warn(`Skipping the contract checks against the real gateway's document: ${REAL_DOCUMENT} is not there (it comes with ../shared beside the checkout).`)

type Json = Record<string, any>

export interface Answer {
  status: number
  body: unknown
  headers: Record<string, unknown>
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void

let loaded: { doc: Json; ajv: Ajv2020; validators: Map<string, ValidateFunction> } | undefined

function real() {
  if (!loaded) {
    const doc = yaml.load(readFileSync(REAL_DOCUMENT, 'utf8')) as Json
    // OpenAPI's own keywords (example, discriminator, x-...) are not JSON Schema: not strict.
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false })
    addFormats(ajv)
    ajv.addSchema({ ...doc, $id: 'real' })
    loaded = { doc, ajv, validators: new Map() }
  }
  return loaded
}

const pointer = (...segments: string[]): string => segments.map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')

const mediaType = (headers: Record<string, unknown>): string =>
  String(headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()

/** The statuses the real document declares for an operation (`4XX` and `default` as written). */
/** Every operation of the real document, as `method path` (paths relative to /api/v1). */
export function realOperations(): string[] {
  const paths = real().doc.paths as Record<string, Record<string, { operationId?: string }>>
  return Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([, op]) => typeof op === 'object' && op !== null && typeof op.operationId === 'string')
      .map(([method]) => `${method} ${path}`),
  )
}

export function declaredStatuses(method: string, path: string): string[] {
  const operation = real().doc.paths?.[path]?.[method]
  if (!operation) throw new Error(`the real document has no ${method.toUpperCase()} ${path}`)
  return Object.keys(operation.responses)
}

/**
 * Problems with `answer` as the real gateway's answer to `method path`: an undeclared status, a media
 * type the status does not declare, or a body its schema refuses. Empty when it conforms.
 */
export function gatewayProblems(method: string, path: string, answer: Answer): string[] {
  const { doc, ajv, validators } = real()
  const responses = doc.paths?.[path]?.[method]?.responses as Json | undefined
  if (!responses) return [`the real document has no ${method.toUpperCase()} ${path}`]
  const status = String(answer.status)
  const key = status in responses ? status : `${status[0]}XX` in responses ? `${status[0]}XX` : 'default' in responses ? 'default' : undefined
  if (key === undefined) return [`status ${status} is not declared (declared: ${Object.keys(responses).join(', ')})`]
  const content = (responses[key].content ?? {}) as Json
  const sent = mediaType(answer.headers)
  // A range such as `audio/*` declares every type of its kind (audio/mpeg, audio/pcm).
  const type = sent in content ? sent : `${sent.split('/')[0]}/*` in content ? `${sent.split('/')[0]}/*` : undefined
  if (type === undefined) return [`content type ${sent || '(none)'} is not declared for ${key} (declared: ${Object.keys(content).join(', ') || 'no body'})`]
  const ref = `real#/${pointer('paths', path, method, 'responses', key, 'content', type, 'schema')}`
  let validate = validators.get(ref)
  if (!validate) {
    validate = ajv.compile({ $ref: ref })
    validators.set(ref, validate)
  }
  if (validate(answer.body)) return []
  return (validate.errors ?? []).map((e) => `body${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`)
}

/** Problems with `value` as one of the real document's component schemas (e.g. `ChatStreamChunk`); empty when it conforms. */
export function componentProblems(schemaName: string, value: unknown): string[] {
  const { doc, ajv, validators } = real()
  if (!doc.components?.schemas?.[schemaName]) return [`the real document has no schema ${schemaName}`]
  const ref = `real#/${pointer('components', 'schemas', schemaName)}`
  let validate = validators.get(ref)
  if (!validate) {
    validate = ajv.compile({ $ref: ref })
    validators.set(ref, validate)
  }
  if (validate(value)) return []
  return (validate.errors ?? []).map((e) => `${schemaName}${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`)
}

/** A value of one of the real document's enums, e.g. `ProviderName`, `Parameter`. */
export function realEnum(schemaName: string): string[] {
  const schema = real().doc.components?.schemas?.[schemaName] as Json | undefined
  if (!Array.isArray(schema?.enum)) throw new Error(`the real document has no enum ${schemaName}`)
  return schema.enum as string[]
}

// ---- The video vendor (real-services.md A3-A7) ----

/** The vendor's error table: HTTP status and message per reason; `{{.fields}}` is a field name. */
export const VENDOR_ERRORS: Record<string, { status: number; message: RegExp }> = {
  BadRequest: { status: 400, message: /^bad request$|^task state is \w+, can not cancel$/ },
  FieldLacking: { status: 400, message: /^field is missing or empty: [\w.[\]]+$/ },
  FieldUnwanted: { status: 400, message: /^unwanted field: [\w.[\]]+$/ },
  FieldItemCountOutOfRange: { status: 400, message: /^field item count out of range: [\w.[\]]+$/ },
  // The table's message has no field; the emulator names which image, as FieldInvalid does.
  PageSizeOutOfRange: { status: 400, message: /^page size out of range(: [\w.[\]]+)?$/ },
  ImageDownloadFailure: { status: 400, message: /^image download failure$/ },
  ImageFormatInvalid: { status: 400, message: /^invalid image format(: [\w.[\]]+)?$/ },
  CreditInsufficient: { status: 400, message: /^insufficient credits$/ },
  FieldInvalid: { status: 400, message: /^invalid field: [\w.[\]]+$/ },
  Unauthorized: { status: 401, message: /^unauthorized$/ },
  Forbidden: { status: 403, message: /^forbidden$/ },
  TaskNotFound: { status: 404, message: /^task not found$/ },
  CreationNotFound: { status: 404, message: /^creation not found$/ },
  NotFound: { status: 404, message: /^not found$/ },
  Conflict: { status: 409, message: /^resource conflict$/ },
  QuotaExceeded: { status: 429, message: /^quota exceeded$/ },
  TooManyRequests: { status: 429, message: /^too many requests$/ },
  SystemThrottling: { status: 429, message: /^system is throttling$/ },
  InternalServiceFailure: { status: 500, message: /^internal service failure$/ },
}

const STATES = ['created', 'queueing', 'processing', 'success', 'failed']
const CREATE_FIELDS = [
  'task_id',
  'state',
  'type',
  'model',
  'template',
  'style',
  'prompt',
  'images',
  'duration',
  'seed',
  'aspect_ratio',
  'resolution',
  'bgm',
  'audio',
  'movement_amplitude',
  'payload',
  'off_peak',
  'credits',
  'watermark',
  'created_at',
]

/** The query's documented fields (A4), and `type`, `model`, `progress`, `err_msg` as observed. */
const QUERY_FIELDS = ['id', 'state', 'err_code', 'credits', 'payload', 'bgm', 'off_peak', 'progress', 'creations', 'type', 'model', 'err_msg']

const videoMeta = {
  type: 'object',
  properties: { duration: { type: 'number' }, fps: { type: 'number' }, resolution: { type: 'object', required: ['width', 'height'] } },
}

/** The documented successful bodies, by operation kind. Extra fields a vendor client would not expect fail. */
const VENDOR_SCHEMAS: Record<'create' | 'query' | 'cancel' | 'list', Json> = {
  create: {
    type: 'object',
    required: ['task_id', 'state'],
    properties: {
      task_id: { type: 'string', pattern: '^\\d{18}$' },
      state: { enum: STATES },
      created_at: { type: 'string', pattern: 'Z$' },
      credits: { type: 'integer' },
      duration: { type: 'integer' },
      images: { type: 'array', items: { type: 'string' } },
      payload: { type: 'string' },
      off_peak: { type: 'boolean' },
    },
    propertyNames: { enum: CREATE_FIELDS },
  },
  query: {
    type: 'object',
    required: ['id', 'state', 'err_code', 'credits', 'payload', 'creations'],
    properties: {
      id: { type: 'string', pattern: '^\\d{18}$' },
      state: { enum: STATES },
      err_code: { type: 'string' },
      credits: { type: 'integer' },
      payload: { type: 'string' },
      bgm: { type: 'boolean' },
      off_peak: { type: 'boolean' },
      progress: { type: 'number', minimum: 0, maximum: 100 },
      creations: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'url', 'cover_url'],
          properties: { id: { type: 'string' }, url: { type: 'string' }, cover_url: { type: 'string' }, watermarked_url: { type: 'string' }, video: videoMeta },
          additionalProperties: false,
        },
      },
    },
    propertyNames: { enum: QUERY_FIELDS },
  },
  cancel: { type: 'object', maxProperties: 0 },
  list: {
    type: 'object',
    required: ['tasks'],
    properties: {
      next_page_token: { type: 'string' },
      tasks: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'string' }, creations: {} },
          // The list's documented fields, and the query's (a listed task is a queried task with its request).
          propertyNames: { enum: [...new Set([...QUERY_FIELDS, 'key_id', 'template', 'prompt', 'images', 'duration', 'resolution', 'aspect_ratio'])] },
        },
      },
    },
    additionalProperties: false,
  },
}

let vendorAjv: Ajv2020 | undefined
const vendorValidators = new Map<string, ValidateFunction>()

/** Problems with `answer` as the vendor's answer for an operation of `kind`; empty when it conforms. */
export function vendorProblems(kind: keyof typeof VENDOR_SCHEMAS, answer: Answer): string[] {
  if (mediaType(answer.headers) !== 'application/json') return [`content type ${String(answer.headers['content-type'])} is not application/json`]
  if (answer.status !== 200) {
    const body = answer.body as Json
    const problems: string[] = []
    const known = VENDOR_ERRORS[body?.reason]
    if (!known) problems.push(`reason ${JSON.stringify(body?.reason)} is not in the vendor's table`)
    else {
      if (known.status !== answer.status) problems.push(`reason ${body.reason} comes with ${known.status}, not ${answer.status}`)
      if (typeof body.message !== 'string' || !known.message.test(body.message))
        problems.push(`message ${JSON.stringify(body?.message)} is not the vendor's for ${body.reason}`)
    }
    if (body?.code !== answer.status) problems.push(`code ${JSON.stringify(body?.code)} is not the status ${answer.status}`)
    const keys = Object.keys(body ?? {})
      .sort()
      .join(',')
    if (keys !== 'code,message,metadata,reason') problems.push(`envelope keys are ${keys}`)
    if (Object.keys(body?.metadata ?? {}).join(',') !== 'trace_id' || !/^[0-9a-f]{32}$/.test(body.metadata.trace_id))
      problems.push(`metadata is ${JSON.stringify(body?.metadata)}, not just a 32-hex trace_id`)
    return problems
  }
  vendorAjv ??= new Ajv2020({ strict: false, allErrors: true })
  let validate = vendorValidators.get(kind)
  if (!validate) {
    validate = vendorAjv.compile(VENDOR_SCHEMAS[kind])
    vendorValidators.set(kind, validate)
  }
  if (validate(answer.body)) return []
  return (validate.errors ?? []).map((e) => `body${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`)
}
