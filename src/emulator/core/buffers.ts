import { Readable } from 'node:stream'
/**
 * A copy of `bytes` in memory of its own. Buffer.from and copyBytesFrom take small copies from Node's
 * shared 64 KB pool, so one long-lived 16 KB copy (a journal entry, a cached vector) keeps a whole
 * 64 KB chunk alive: kept copies need their own, exactly sized memory.
 */
export function ownedCopy(bytes: Uint8Array): Buffer {
  const copy = Buffer.allocUnsafeSlow(bytes.length)
  copy.set(bytes)
  return copy
}

/** `parts` joined, in memory of its own (Buffer.concat takes a small result from the shared pool). */
export function ownedConcat(parts: readonly Uint8Array[]): Buffer {
  const out = Buffer.allocUnsafeSlow(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

// Bodies built once and never changed (the catalog's memoised lists): the journal keeps them by
// reference, which costs nothing, instead of copying their start into every entry.
const shared = new WeakSet<Buffer>()

export function markShared(bytes: Buffer): Buffer {
  shared.add(bytes)
  return bytes
}

export const isShared = (bytes: Buffer): boolean => shared.has(bytes)

/**
 * A body sent as the pieces it is made of, without copying them into one buffer first: a response of
 * cached pieces (16 embeddings of 20 KB) would otherwise allocate and copy its whole size per request.
 * It knows its length (for Content-Length) and its first bytes (for the journal).
 */
export class PiecesBody extends Readable {
  readonly byteLength: number
  private readonly pieces: readonly Buffer[]

  constructor(pieces: readonly Buffer[]) {
    super()
    this.pieces = pieces
    this.byteLength = pieces.reduce((n, p) => n + p.length, 0)
  }

  override _read(): void {
    for (const piece of this.pieces) this.push(piece)
    this.push(null)
  }

  /** Copies the first bytes, up to `room`, into `target` at `at`; returns how many. */
  copyHead(target: Buffer, at: number, room: number): number {
    let copied = 0
    for (const piece of this.pieces) {
      if (copied >= room) break
      copied += piece.copy(target, at + copied, 0, Math.min(piece.length, room - copied))
    }
    return copied
  }
}

/**
 * A body written over time (server-sent events, an upstream answer relayed as it arrives) that keeps
 * a copy of its first bytes, so the journal can show what was sent once the answer has finished.
 * `write` returns false once the client is gone.
 */
export class RecordedStream extends Readable {
  private readonly kept: Buffer[] = []
  private keptBytes = 0
  /** Bytes written so far. */
  sentBytes = 0
  private readonly keepLimit: number
  /** A producer waiting for the reader to want more. */
  private waiting: (() => void) | null = null
  /** end() was called: everything is written. */
  private ended = false

  constructor(keepLimit: number) {
    super()
    this.keepLimit = keepLimit
  }

  override _read(): void {
    // Written to by its producer at its own pace; the reader asking for more releases a waiting one.
    this.release()
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.release()
    callback(error)
  }

  private release(): void {
    const waiting = this.waiting
    this.waiting = null
    waiting?.()
  }

  /** More than the reader has taken is buffered: a producer should await drained() before writing on. */
  get full(): boolean {
    return this.readableLength >= this.readableHighWaterMark
  }

  /** Resolves once the reader wants more, or the stream is gone (then write returns false). */
  drained(): Promise<void> {
    if (!this.full || this.destroyed) return Promise.resolve()
    return new Promise((resolve) => {
      this.waiting = resolve
    })
  }

  write(chunk: string | Buffer): boolean {
    if (this.destroyed || this.readableEnded) return false
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    this.sentBytes += bytes.length
    if (this.keptBytes < this.keepLimit) {
      const part = bytes.subarray(0, this.keepLimit - this.keptBytes)
      this.kept.push(part)
      this.keptBytes += part.length
    }
    this.push(bytes)
    return true
  }

  end(): void {
    this.ended = true
    if (!this.destroyed) this.push(null)
  }

  /**
   * A body written whole before it is piped (an answer with nothing to pace) goes to the response as one
   * write and the end in the same turn, which the response sends as one packet with its headers, instead
   * of through the stream's flow (the chunk, then the end of the chunked encoding a tick later, in a write
   * of its own). The stream still ends as a stream does ('end', then 'close').
   */
  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    if (!this.ended || this.destroyed || this.readableFlowing !== null || options?.end === false) return super.pipe(destination, options)
    const whole = this.read() as Buffer | null
    if (whole !== null) destination.write(whole)
    destination.end()
    return destination
  }

  /** The first bytes sent, up to the limit given. */
  recorded(): Buffer {
    return this.kept.length === 1 ? this.kept[0]! : Buffer.concat(this.kept)
  }
}
