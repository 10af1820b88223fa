// The JSON body parser: Fastify's own (with its prototype-poisoning checks), behind a nesting-depth
// bound. A body nested thousands deep parses, but then overflows the stack of whatever walks it
// recursively (validation, a guardrail's filters, the journal's formatting), so it is refused before
// anything reads or stores it.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { nestedTooDeep } from './http.errors.ts'

/** Deeper than any body of these APIs needs (theirs are a few levels deep), far below any stack limit. */
export const MAX_JSON_DEPTH = 64

const OPEN_OBJECT = 0x7b
const OPEN_ARRAY = 0x5b
const CLOSE_OBJECT = 0x7d
const CLOSE_ARRAY = 0x5d
const QUOTE = 0x22
const BACKSLASH = 0x5c

/**
 * True when `text` nests objects and arrays deeper than `limit`. One pass over the characters, with
 * strings skipped (a bracket inside a string does not nest); malformed JSON is left to the parser.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === BACKSLASH) i++
      else if (c === QUOTE) inString = false
    } else if (c === QUOTE) inString = true
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > limit) return true
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--
  }
  return false
}

/**
 * False when `text` has no more than `limit` opening brackets at all, so it cannot nest deeper: most
 * bodies are settled by the engine's own search for two characters, without a pass in JavaScript.
 */
function mayNestDeeperThan(text: string, limit: number): boolean {
  let openings = 0
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) if (++openings > limit) return true
  }
  return false
}

declare module 'fastify' {
  interface FastifyRequest {
    /** A JSON body as it arrived: what the journal keeps, rather than the parsed objects. */
    bodyText: string | null
    /** The bytes of a body sent without a declared length (chunked), as read: what the journal sizes it by. */
    bodyBytes: number | null
  }
}

export function installJsonParser(app: FastifyInstance, limit = MAX_JSON_DEPTH): void {
  const parse = app.getDefaultJsonParser('error', 'error')
  app.decorateRequest('bodyText', null)
  app.decorateRequest('bodyBytes', null)
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string // parseAs: 'string'
    if (mayNestDeeperThan(text, limit) && nestsDeeperThan(text, limit)) return done(nestedTooDeep(limit), undefined)
    request.bodyText = text
    if (request.headers['content-length'] === undefined) request.bodyBytes = Buffer.byteLength(text)
    void parse(request, text, done)
  })
}

/**
 * The scope's default JSON parser (its prototype checks, its errors) as a function of the text, for a
 * content-type parser that reads the body itself and parses parts of it (media-body.ts, the state import).
 * That parser answers at once: its answer is returned or thrown.
 */
export function scopeJsonParser(scope: FastifyInstance): (request: FastifyRequest, text: string) => unknown {
  const parser = scope.getDefaultJsonParser('error', 'error')
  return (request, text) => {
    let answer: { error: Error | null; value?: unknown } | undefined
    void parser(request, text, (error, value) => (answer = { error, value }))
    if (!answer) throw new Error('the JSON parser did not answer at once')
    if (answer.error) throw answer.error
    return answer.value
  }
}
