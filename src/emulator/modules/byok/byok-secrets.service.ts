// Secrets these APIs are handed (a provider key, a destination's API keys, passwords and headers) are
// kept only masked, so no answer, export or inspector view can show them; and the journal keeps the
// request bodies that carried them with those fields redacted.
import type { onSendHookHandler } from 'fastify'
import { REDACTED, SECRET_NAME } from '../../core/redact.ts'

/** Secrets shorter than this show nothing of themselves once masked. */
const SHORTEST_SHOWN = 12

/** `sk-...AbCd`: the first `head` and last 4 characters of a secret, or asterisks for a short one. */
export function maskSecret(secret: string, head: number): string {
  return secret.length >= SHORTEST_SHOWN ? `${secret.slice(0, head)}...${secret.slice(-4)}` : '********'
}

/** Whether a field's name says it holds a secret (apiKey, secretKey, password, token...), as the journal judges headers. */
export const isSecretName = (name: string): boolean => SECRET_NAME.test(name)

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * A body's text with `redact` applied to it; anything but a JSON object is not kept at all (it might be
 * a bare secret). The journal takes a text shorter than the request's Content-Length for a body it
 * cut, so a shorter one is padded to that length with spaces (JSON's own whitespace).
 */
function redactedText(text: string, redact: (body: Record<string, unknown>) => void): string {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return padded('(a body that is not JSON: not kept, it may hold a secret)', text)
  }
  if (!isObject(body)) return padded('(a body that is not a JSON object: not kept, it may hold a secret)', text)
  redact(body)
  return padded(JSON.stringify(body), text)
}

const padded = (text: string, original: string): string => text + ' '.repeat(Math.max(0, Buffer.byteLength(original) - Buffer.byteLength(text)))

/**
 * The onSend hook of a route whose body carries secrets. The journal keeps `request.bodyText` (the
 * JSON as it arrived) when it records the request, after onSend: the hook leaves it redacted there,
 * whatever the answer was (a 400, a fault, a success).
 */
export function journalRedacted(redact: (body: Record<string, unknown>) => void): onSendHookHandler {
  return (request, _reply, payload, done) => {
    const body: unknown = request.body
    const raw =
      request.bodyText ??
      (typeof body === 'string' ? body : Buffer.isBuffer(body) ? body.toString('utf8') : body === undefined || body === null ? null : JSON.stringify(body))
    if (raw !== null) request.bodyText = redactedText(raw, redact)
    done(null, payload)
  }
}

/** Replaces the values of secret-named fields of `object` (and every value of its `headers`) with `[redacted]`. */
export function redactSecretFields(object: unknown): void {
  if (!isObject(object)) return
  for (const [name, value] of Object.entries(object)) {
    if (name === 'headers' && isObject(value)) for (const header of Object.keys(value)) value[header] = REDACTED
    else if (isSecretName(name)) object[name] = REDACTED
  }
}
