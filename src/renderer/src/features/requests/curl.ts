// "Copy as curl": a journal entry as a command that sends the same request again.
import type { JournalEntry } from '../../api.ts'

/** Headers curl sets itself, or that would be wrong when sent again (length, host, compression). */
const SKIP = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'accept-encoding', 'keep-alive', 'expect'])

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`

/** True when the journal kept only part of the request body, or hid a key in it. */
export const bodyIncomplete = (entry: JournalEntry): boolean => {
  const body = entry.request.body
  return body !== null && (/… \(\d+ more bytes\)$/.test(body) || /^\(\d+ bytes, too large to record\)$/.test(body) || body.includes('…[redacted]'))
}

/**
 * The request as a runnable curl command: method, the URL on this origin, its headers (redacted ones
 * left out; the key comes from $KEY), and its body.
 */
export function curlCommand(entry: JournalEntry, origin: string): string {
  const url = `${origin}${entry.path}${entry.query ? `?${entry.query}` : ''}`
  const body = entry.request.body
  const lines = [`curl ${entry.method === 'GET' && body === null ? '' : `-X ${entry.method} `}${quote(url)}`]
  for (const [name, value] of Object.entries(entry.request.headers)) {
    const lower = name.toLowerCase()
    if (lower === 'authorization') {
      lines.push(`-H "Authorization: Bearer $KEY"`)
      continue
    }
    if (SKIP.has(lower) || value.includes('[redacted]')) continue
    lines.push(`-H ${quote(`${name}: ${value}`)}`)
  }
  if (body !== null && body !== '') lines.push(`${body.startsWith('@') ? '--data-raw' : '--data'} ${quote(body)}`)
  return lines.join(' \\\n  ')
}
