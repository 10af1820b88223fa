// Long strings of a request's body (an inline image or reference: up to 67 MB of base64) read a slice
// at a time, with a turn of the event loop between two slices, so other requests are answered
// meanwhile. They are strings of the parsed body, which a worker thread would get only as a copy made
// here (slower than the work: 450 ms for 67 MB), so they are read in the emulator's thread, in slices.
import { setImmediate as nextTurn } from 'node:timers/promises'

/** Characters checked or hashed between two turns of the event loop: a millisecond or two of work. */
export const SLICE_CHARS = 1024 * 1024

/** The slices of a long text, none ending between the two halves of a surrogate pair (they are hashed as UTF-8). */
export function* slices(text: string): Generator<string> {
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + SLICE_CHARS)
    const last = text.charCodeAt(end - 1)
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++
    yield text.slice(at, end)
    at = end
  }
}

const BASE64_RUN = /^[A-Za-z0-9+/]*$/

/** Whether the first `end` characters of a text all match `run` (a `^[...]*$` class), read a slice at a time. */
export async function allMatch(text: string, run: RegExp, end = text.length): Promise<boolean> {
  for (let at = 0; at < end; at += SLICE_CHARS) {
    if (at > 0) await nextTurn()
    if (!run.test(text.slice(at, Math.min(end, at + SLICE_CHARS)))) return false
  }
  return true
}

/** Whether a text is base64: its alphabet, then at most two `=` of padding; read a slice at a time. */
export function isBase64(text: string): Promise<boolean> {
  return allMatch(text, BASE64_RUN, text.endsWith('==') ? text.length - 2 : text.endsWith('=') ? text.length - 1 : text.length)
}
