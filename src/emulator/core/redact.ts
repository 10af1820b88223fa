// Secrets never reach a log line, the journal, its HAR export or the UI. Keys of the emulator's own
// form are recognised anywhere in a text; other secrets by the name they travel under.

// A key cut short by a body's truncation is still a secret: its start is redacted too.
const TOKEN = /sk-gw-v1-[0-9a-f]{64}|sk-gw-v1-[0-9a-f]+$/g
/** Keys never reach the journal, its exports or the UI: only their prefix stays, to tell them apart. */
export const redact = (text: string): string => text.replace(TOKEN, (token) => `${token.slice(0, 12)}…[redacted]`)

/**
 * Names whose values are secrets wherever they appear (headers, query parameters): Authorization,
 * X-Emulator-Admin-Token, ?api_key=, ?key=, a signature, a cookie. Redacted by name, so a secret of a
 * form the emulator does not know is kept out too.
 */
export const SECRET_NAME = /authorization|cookie|key|token|secret|signature|password|credential/i
export const REDACTED = '[redacted]'

/** A query string with the values of secret-named parameters redacted, the rest as sent. */
export function redactQuery(query: string): string {
  if (query === '') return query
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=')
      const name = equals === -1 ? pair : pair.slice(0, equals)
      let decoded = name
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '))
      } catch {
        // a malformed escape: judge the name as sent
      }
      return equals !== -1 && SECRET_NAME.test(decoded) ? `${name}=${REDACTED}` : redact(pair)
    })
    .join('&')
}

/** A request URL (path and query) with its secret-named query parameters redacted. */
export function redactUrl(url: string): string {
  const query = url.indexOf('?')
  return query === -1 ? url : `${url.slice(0, query)}?${redactQuery(url.slice(query + 1))}`
}
