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

// Bodies that are built once and never change (the catalog's memoised lists): a journal entry may
// keep them by reference, which costs nothing, instead of copying their start on every request.
const immutable = new WeakSet<Buffer>()

export function markImmutable(bytes: Buffer): Buffer {
  immutable.add(bytes)
  return bytes
}

export const isImmutable = (bytes: Buffer): boolean => immutable.has(bytes)

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

  /** A copy of the first `limit` bytes, in memory of its own. */
  head(limit: number): Buffer {
    const out = Buffer.allocUnsafeSlow(Math.min(limit, this.byteLength))
    let at = 0
    for (const piece of this.pieces) {
      if (at >= out.length) break
      at += piece.copy(out, at, 0, Math.min(piece.length, out.length - at))
    }
    return out
  }
}
