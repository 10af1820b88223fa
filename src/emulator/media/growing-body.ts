// A response body that is a file still being written by a worker thread (a WAV synthesized into shared
// memory): its length is known before it starts, so it goes out with a Content-Length, and its bytes
// are sent as they become final, in slices, no faster than the client takes them. A client that stops
// reading holds back only its own answer; the file is made once, whoever reads it.
import { Readable } from 'node:stream'

/** Bytes pushed at a time. */
const SLICE = 256 * 1024

export class GrowingBody extends Readable {
  readonly byteLength: number
  private file: Uint8Array | null = null
  private ready = 0
  private sent = 0
  private complete = false
  /** The reader asked for more than was final. */
  private wanting = false

  constructor(byteLength: number) {
    super({ highWaterMark: SLICE })
    this.byteLength = byteLength
  }

  /** The body's bytes are `file`, the first `ready` of which are final. */
  grow(file: Uint8Array, ready: number): void {
    this.file = file
    this.ready = Math.min(ready, this.byteLength)
    if (this.wanting) this.pushSome()
  }

  /** Every byte is final. */
  finish(): void {
    this.complete = true
    if (this.wanting) this.pushSome()
  }

  override _read(): void {
    this.wanting = true
    this.pushSome()
  }

  private pushSome(): void {
    if (this.destroyed) return
    while (this.file && this.sent < this.ready) {
      const end = Math.min(this.ready, this.sent + SLICE)
      const more = this.push(Buffer.from(this.file.buffer, this.file.byteOffset + this.sent, end - this.sent))
      this.sent = end
      if (!more) {
        this.wanting = false
        return
      }
    }
    if (this.complete && this.sent >= this.byteLength) {
      this.wanting = false
      this.push(null)
    }
  }
}
