// A journal entry's bodies as the inspector reads them: what the journal kept (the whole body, its
// start when it was cut at --journal-body-limit, or a note saying why it kept nothing), JSON parsed
// without throwing, and a header by name. Pure: no DOM, no requests.

/** What the journal appends to a body it cut at its limit. */
const CUT = /… \((\d+) more bytes\)$/
/** Notes the journal keeps instead of a body it did not record. */
const NOT_KEPT = [/^\(\d+ bytes, too large to record\)$/, /^\(a stream, not recorded\)$/, /^\(\d+ bytes that could not be shown\)$/]

export type Kept = { text: string; cutBytes: number | null } | { problem: string }

export const LIMIT_HINT = 'raise --journal-body-limit to keep whole bodies'

/** A body as kept: its text (and how many bytes were cut after it), or why there is none. */
export function kept(body: string | null, what: 'request' | 'answer'): Kept {
  if (body === null || body === '') return { problem: `The ${what} had no body.` }
  if (NOT_KEPT.some((note) => note.test(body))) return { problem: `The journal did not keep the ${what}'s body ${body}.` }
  const cut = CUT.exec(body)
  return cut ? { text: body.slice(0, cut.index), cutBytes: Number(cut[1]) } : { text: body, cutBytes: null }
}

export const parseJson = (text: string): { value: unknown } | null => {
  try {
    return { value: JSON.parse(text) as unknown }
  } catch {
    return null
  }
}

export const header = (headers: Record<string, string>, name: string): string | null =>
  Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1] ?? null

/**
 * A whole JSON body, or why it cannot be read: not kept, cut by the journal (a cut JSON body is never
 * parsed into half a value), or not JSON.
 */
export function jsonBody(body: string | null, what: 'request' | 'answer'): { value: unknown } | { problem: string } {
  const text = kept(body, what)
  if ('problem' in text) return text
  if (text.cutBytes !== null) {
    return {
      problem: `The journal kept only the first part of the ${what}${what === 'request' ? ' body' : ''} (${text.cutBytes} more bytes were cut), so it is not shown here: ${LIMIT_HINT}.`,
    }
  }
  return parseJson(text.text) ?? { problem: `The ${what} ${what === 'request' ? 'body ' : ''}is not JSON; see it below.` }
}
