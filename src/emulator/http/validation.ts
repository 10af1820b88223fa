// Request validation. Query strings, path params and headers arrive as text, so they are coerced
// ("5" -> 5); bodies are JSON and are checked as sent, so {"limit":"5"} is a 400, not a silent 5.
// Wherever a schema asks for a number or an integer, only a finite one passes: JSON.parse turns
// 1e400 into Infinity (which Ajv's own type check takes for an integer, and JSON.stringify then
// stores as null), so the check is made here once for every schema rather than field by field.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { FastifySchemaCompiler } from 'fastify'
import { sep } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { BUNDLED_FIXTURES } from '../config.ts'
import { ApiError, fieldError } from '../core/errors.ts'
import type { SettingsLifecycle } from '../core/lifecycle.ts'
import { OPTIONAL_BODY } from './schemas.ts'
import { invalidRequestParameters, schemaViolation } from './http.errors.ts'

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv

// validateSchema: false skips checking each schema against the JSON Schema meta-schema, whose own
// compilation cost ~70 ms on the first request after a start. The schemas are ours (TypeBox), and the
// suite compiles every one of them.
// strictNumbers: NaN and Infinity fail `type: number` and `type: integer`; verbose: an error carries
// the value it is about, so a non-finite one is named as such (built only on the error path).
function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    coerceTypes: coerce ? 'array' : false,
    strictNumbers: true,
    verbose: true,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    strict: false,
    validateSchema: false,
  })
  addFormats(ajv)
  return ajv
}

const coercing = makeAjv(true)
const exact = makeAjv(false)

// Each route's validator compiles on its first request, not at start-up: compiling every schema up
// front (the catalog's is large) would cost most of a cold start.
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  let validate: ValidateFunction | undefined
  const isBody = httpPart === 'body'
  const bodyOptional = isBody && (schema as Record<string, unknown>)[OPTIONAL_BODY] === true
  return (data: unknown) => {
    // Fastify hands a missing body over as null (or undefined, depending on the request).
    if ((data === undefined || data === null) && bodyOptional) return { value: undefined }
    validate ??= (isBody ? exact : coercing).compile(schema as object)
    if (!validate(data)) return { error: Object.assign(new Error('validation'), { validation: validate.errors ?? [] }) }
    // Coercion turns "1e400" or "Infinity" in a query into Infinity without asking strictNumbers.
    const infinite = isBody ? null : nonFiniteIn(data)
    return infinite ? { error: Object.assign(new Error('validation'), { validation: [infinite] }) } : { value: data }
  }
}

/** The first value of a coerced query, params or headers object that is a number but not finite, as a type error. */
function nonFiniteIn(data: unknown): ErrorObject | null {
  if (data === null || typeof data !== 'object') return null
  for (const [name, value] of Object.entries(data)) {
    const values = Array.isArray(value) ? value : [value]
    const at = values.findIndex((v) => typeof v === 'number' && !Number.isFinite(v))
    if (at >= 0) {
      const path = `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}${Array.isArray(value) ? `/${at}` : ''}`
      return { instancePath: path, schemaPath: '', keyword: 'type', params: { type: 'number' }, data: values[at], message: 'must be number' }
    }
  }
  return null
}

const isNonFinite = (value: unknown): boolean => typeof value === 'number' && !Number.isFinite(value)

const LOCATION: Record<string, string> = { body: 'Field', querystring: 'Query parameter', params: 'Path parameter', headers: 'Header' }

const describeType = (type: unknown): string => {
  const names = (Array.isArray(type) ? type : [type]).map((t) =>
    t === 'integer' ? 'an integer' : t === 'array' ? 'an array' : t === 'object' ? 'an object' : t === 'null' ? 'null' : `a ${String(t)}`,
  )
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : (names[0] ?? 'valid')
}

function describeIssue(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>
  switch (e.keyword) {
    case 'required':
      return 'is required'
    case 'type':
      // Infinity is JSON's 1e400 (or a query's "Infinity"): a number, but none any field can hold.
      return isNonFinite(e.data) ? `must be ${describeType(p.type)}: it is too large to be a finite number` : `must be ${describeType(p.type)}`
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).map((v) => (v === null ? 'null' : String(v))).join(', ')}`
    case 'minimum':
      return `must be >= ${String(p.limit)}`
    case 'exclusiveMinimum':
      return `must be > ${String(p.limit)}`
    case 'maximum':
      return `must be <= ${String(p.limit)}`
    case 'exclusiveMaximum':
      return `must be < ${String(p.limit)}`
    case 'minLength':
      return p.limit === 1 ? 'must not be empty' : `must be at least ${String(p.limit)} characters`
    case 'maxLength':
      return `must be at most ${String(p.limit)} characters`
    case 'minItems':
      return p.limit === 1 ? 'must not be empty' : `must have at least ${String(p.limit)} items`
    case 'maxItems':
      return `must have at most ${String(p.limit)} items`
    case 'additionalProperties':
      return 'is not a known field'
    case 'pattern':
    case 'format':
      return `is not valid (${e.message ?? 'bad format'})`
    default:
      return e.message ?? 'is not valid'
  }
}

/** The field a failure is about, written as `models[3].pricing.prompt`, and what is wrong with it. */
function fieldIssue(e: ErrorObject): { field: string; issue: string } {
  const segments = e.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
  if (e.keyword === 'required') segments.push((e.params as { missingProperty: string }).missingProperty)
  if (e.keyword === 'additionalProperties') segments.push((e.params as { additionalProperty: string }).additionalProperty)
  const field = segments.reduce((path, s) => (/^\d+$/.test(s) ? `${path}[${s}]` : path ? `${path}.${s}` : s), '')
  return { field, issue: describeIssue(e) }
}

/**
 * A compiled check of a document against a schema (fixture files, imports), reporting the first
 * problem the way request validation does: { field: 'models[3].name', issue: 'is required' }.
 */
export function compileCheck(schema: object): (value: unknown) => { field: string; issue: string } | null {
  const validate = exact.compile(schema)
  return (value) => (validate(value) ? null : fieldIssue(validate.errors![0]!))
}

/**
 * A fixture file's schema check: `path`'s document against `schema`, as compileCheck reports it. The
 * package's own files (fixtures/) are not checked: the test suite checks them
 * (test/unit/modules/bundled-fixtures.test.ts), and compiling their schemas was a sixth of a cold start.
 */
export function checkFixture(schema: object, path: string, value: unknown): { field: string; issue: string } | null {
  return path.startsWith(BUNDLED_FIXTURES + sep) ? null : compileCheck(schema)(value)
}

/** Turns the first validation failure into a 400 that names the field: "`limit` must be a number or null". */
export function validationToApiError(errors: ErrorObject[], context: string | undefined): ApiError {
  const e = errors[0]
  if (!e) return invalidRequestParameters()
  const { field, issue } = fieldIssue(e)
  const location = LOCATION[context ?? 'body'] ?? 'Field'
  const message = field ? `${location} \`${field}\` ${issue}` : `Request ${context === 'querystring' ? 'query' : 'body'} ${issue}`
  return schemaViolation(message, field || null, context ?? 'body', issue)
}

/**
 * A run-time setting checked by `schema` on import (see core/lifecycle.ts): a value that does not fit
 * is a 400 naming `settings.<name>.<field>`, and changes nothing. A partial value is laid over the defaults.
 */
export function checkedSettings<T extends object>(
  name: string,
  schema: object,
  hold: { current(): T; defaults(): T; apply(value: T): void },
): SettingsLifecycle<T> {
  let check: ReturnType<typeof compileCheck> | undefined
  const verify = (value: unknown): T => {
    // The defaults are the configuration's, checked when it was read: going back to them (every start
    // and reset) compiles no schema, which was a few percent of a cold start.
    if (isDeepStrictEqual(value, hold.defaults())) return hold.defaults()
    check ??= compileCheck(schema)
    const problem = check(value)
    if (problem) throw fieldError(`settings.${name}${problem.field ? `.${problem.field}` : ''}`, problem.issue)
    return { ...hold.defaults(), ...(value as Partial<T>) }
  }
  return {
    current: hold.current,
    defaults: hold.defaults,
    check: (value) => void verify(value),
    restore: (value) => hold.apply(verify(value)),
  }
}
