// A form's file (a multipart part, @fastify/multipart over busboy) collected as it arrives into one
// buffer sized from what the request declares: never more than the file's own bound in memory, and no
// second copy of the whole at the end (a chunk list joined by Buffer.concat holds it twice).
import type { Readable } from 'node:stream'

/** Room made for a file whose request declares no length (a chunked body), grown as it arrives. */
const FIRST_ROOM = 1024 * 1024

/**
 * The file's bytes, or null when it passed `limit` (busboy's `fileSize` limit, which stops the part at
 * `limit` bytes and marks it truncated: the rest of the form is read and dropped). `declared` is the
 * request's Content-Length (NaN when none): the file is at most that long.
 */
export async function readFormFile(file: Readable & { truncated?: boolean }, limit: number, declared: number): Promise<Buffer | null> {
  let room = Buffer.allocUnsafe(Math.min(limit, declared > 0 ? declared : FIRST_ROOM))
  let length = 0
  let over = false
  for await (const chunk of file as AsyncIterable<Buffer>) {
    if (over) continue
    if (length + chunk.length > room.length) {
      if (length + chunk.length > limit) {
        over = true
        continue
      }
      const grown = Buffer.allocUnsafe(Math.min(limit, Math.max(room.length * 2, length + chunk.length)))
      room.copy(grown, 0, 0, length)
      room = grown
    }
    chunk.copy(room, length)
    length += chunk.length
  }
  if (over || file.truncated === true) return null
  return room.subarray(0, length)
}
