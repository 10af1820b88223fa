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
