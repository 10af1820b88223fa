// Where the journal keeps each entry's headers and bodies: one buffer per place in the ring, reused
// by the entry that takes the place. Copies of the first bytes made per request, or references to a
// request's objects, would live as long as 1,000 requests take: long enough to outlive the young
// generation, so the garbage they become is freed only by a full collection, and the process grows
// by far more than the journal holds. A slot grows to what its largest entry needed (never past its
// bound) and is then written over in place: after the first pass round the ring, recording allocates
// nothing and the journal holds exactly the sum of its slots.
import { PiecesBody } from '../core/buffers.ts'

/** Headers kept per request and per response, at most: more than any real request sends. */
export const HEADER_BYTES = 8 * 1024

/**
 * What a slot grows by: a chat's entry (headers, the request and the answer) needs under 2 KB, which
 * whole 4 KB pages held at twice that (3.9 MB for the ring of 1,000 chats; 2.0 MB in 1 KB steps).
 */
const SLOT_STEP = 1024

/** A part of a slot: where it starts and how many bytes it holds. */
export interface Span {
  at: number
  length: number
}

export type Headers = Record<string, string | string[] | number | undefined>

/** The bytes (or a string) to keep of a body, and how many of them fit. */
export type BodyBytes = Buffer | PiecesBody | string

export class JournalSlots {
  private readonly slots: Buffer[] = []
  private heldBytes = 0
  private readonly count: number
  /** The most one slot holds: two headers and two bodies at their bounds. */
  readonly slotBytes: number

  constructor(count: number, bodyLimit: number) {
    this.count = count
    this.slotBytes = 2 * HEADER_BYTES + 2 * bodyLimit
  }

  /** Bytes the slots hold, and the most they can. */
  get bytes(): number {
    return this.heldBytes
  }

  get limitBytes(): number {
    return this.count * this.slotBytes
  }

  clear(): void {
    this.slots.length = 0
    this.heldBytes = 0
  }

  /** A writer filling slot `index` from its start (what it held before is written over). */
  writer(index: number): SlotWriter {
    return new SlotWriter(this, index)
  }

  /** Slot `index` with room for at least `needed` bytes (never past the bound), keeping its first `keep` bytes. */
  room(index: number, needed: number, keep: number): Buffer {
    const slot = this.slots[index]
    if (slot && slot.length >= needed) return slot
    // Grown in steps of SLOT_STEP, to what the largest entry in this place needed.
    const size = Math.min(this.slotBytes, Math.ceil(Math.max(needed, 1) / SLOT_STEP) * SLOT_STEP)
    const grown = Buffer.allocUnsafeSlow(size)
    if (slot) slot.copy(grown, 0, 0, keep)
    this.heldBytes += size - (slot?.length ?? 0)
    this.slots[index] = grown
    return grown
  }

  read(index: number, span: Span): Buffer {
    return this.slots[index]!.subarray(span.at, span.at + span.length)
  }
}

export class SlotWriter {
  private at = 0
  private readonly slots: JournalSlots
  private readonly index: number

  constructor(slots: JournalSlots, index: number) {
    this.slots = slots
    this.index = index
  }

  /** Headers as `name: value` lines, up to HEADER_BYTES (lines that do not fit are left out). */
  headers(headers: Headers): Span {
    let lines = ''
    for (const name in headers) {
      const value = headers[name]
      if (value !== undefined) lines += `${name}: ${Array.isArray(value) ? value.join(', ') : String(value)}\n`
    }
    const start = this.at
    const slot = this.slots.room(this.index, start + Math.min(HEADER_BYTES, 3 * lines.length), start)
    // One write of whole characters; a line cut short at the bound is dropped.
    let written = slot.write(lines, start, Math.min(HEADER_BYTES, slot.length - start), 'utf8')
    if (written > 0 && slot[start + written - 1] !== 0x0a) written = slot.lastIndexOf(0x0a, start + written - 1) + 1 - start
    this.at += Math.max(0, written)
    return { at: start, length: this.at - start }
  }

  /** The first bytes of a body, up to `limit`: whole characters only for a string. */
  body(body: BodyBytes, limit: number): Span {
    const start = this.at
    const length = Math.min(limit, typeof body === 'string' ? Buffer.byteLength(body) : body instanceof PiecesBody ? body.byteLength : body.length)
    const slot = this.slots.room(this.index, start + length, start)
    if (typeof body === 'string') this.at += slot.write(body, start, length, 'utf8')
    else if (body instanceof PiecesBody) this.at += body.copyHead(slot, start, length)
    else this.at += body.copy(slot, start, 0, length)
    return { at: start, length: this.at - start }
  }
}

/** Headers kept as `name: value` lines, as an object again (for reading). */
export function parseHeaderLines(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const line of text.split('\n')) {
    const colon = line.indexOf(': ')
    if (colon > 0) out[line.slice(0, colon)] = line.slice(colon + 2)
  }
  return out
}
