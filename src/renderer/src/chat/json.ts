// Reading untrusted JSON from the journal: narrowing helpers shared by every parser of the inspector,
// and the first step every stream assembler takes with an event's data.

export type Json = Record<string, unknown>
export const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value)
export const str = (value: unknown): string | null => (typeof value === 'string' ? value : null)
export const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null)

/**
 * One event's data read into an object, counted on the answer: `[DONE]` marks it done, and data that is
 * not a JSON object is counted as unreadable. Null when there is no object to apply.
 */
export function readEvent(answer: { events: number; done: boolean; unreadable: number }, data: string): Json | null {
  answer.events++
  if (data === '[DONE]') {
    answer.done = true
    return null
  }
  let value: unknown
  try {
    value = JSON.parse(data)
  } catch {
    answer.unreadable++
    return null
  }
  if (!isObject(value)) {
    answer.unreadable++
    return null
  }
  return value
}
