// Reading a large recording file off the event loop: its SHA-256, its decoding and JSON.parse (tens of
// milliseconds each for a file near its 6.9 MB bound) run in a worker thread, and the parsed value
// comes back by structured clone (a copy, far cheaper than a parse). A small file is parsed where it
// is (a round trip would cost more than it saves). One worker for the process, made when first
// needed, never keeping the process alive, and ended once idle: a reload is rare.
import { createHash } from 'node:crypto'
import { Worker } from 'node:worker_threads'

/** A file is parsed in the worker from this size on. */
export const OFF_THREAD_BYTES = 512 * 1024
/** An idle worker ends after this long. */
const IDLE_MS = 10_000
/** The worker's heap: a few files of 6.9 MB parsed at a time, with room. */
const HEAP_MB = 256

/** A file's bytes as JSON, with their digest (a reload keeps the uses of a file whose bytes did not change). */
export type Parsed = { digest: string; value: unknown } | { digest: string; error: { name: string; message: string } }

/** Parses where it is: for the start (synchronous) and for small files. */
export function parseHere(bytes: Buffer): Parsed {
  const digest = createHash('sha256').update(bytes).digest('hex')
  try {
    return { digest, value: JSON.parse(bytes.toString('utf8')) }
  } catch (error) {
    return { digest, error: { name: (error as Error).name, message: (error as Error).message } }
  }
}

// CommonJS, evaluated by the worker: nothing of the emulator's, so it starts in a few milliseconds.
// A value structured clone cannot carry (nested past its stack) comes back as an error.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads')
const { createHash } = require('node:crypto')
parentPort.on('message', ({ id, bytes }) => {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const digest = createHash('sha256').update(buffer).digest('hex')
  let value
  try {
    value = JSON.parse(buffer.toString('utf8'))
  } catch (error) {
    parentPort.postMessage({ id, digest, error: { name: error.name, message: error.message } })
    return
  }
  try {
    parentPort.postMessage({ id, digest, value })
  } catch (error) {
    parentPort.postMessage({ id, digest, error: { name: 'RangeError', message: 'nested too deeply' } })
  }
})
`

interface Waiting {
  resolve(parsed: Parsed): void
  reject(error: Error): void
}

let worker: Worker | null = null
const waiting = new Map<number, Waiting>()
let nextId = 0
let idle: NodeJS.Timeout | null = null

function started(): Worker {
  if (worker) return worker
  const made = new Worker(WORKER_SOURCE, { eval: true, resourceLimits: { maxOldGenerationSizeMb: HEAP_MB } })
  made.unref() // an idle worker never keeps the process alive
  made.on('message', (message: Parsed & { id: number }) => {
    const { id, ...parsed } = message
    waiting.get(id)?.resolve(parsed)
    waiting.delete(id)
    if (waiting.size === 0) idleSoon()
  })
  // Gone (out of its heap, or ended): what waited on it is refused, and the next file starts another.
  const gone = (error: Error): void => {
    if (worker === made) worker = null
    for (const w of waiting.values()) w.reject(error)
    waiting.clear()
  }
  made.on('error', gone)
  made.on('exit', () => gone(new Error('the parsing worker ended')))
  worker = made
  return made
}

function idleSoon(): void {
  if (idle) clearTimeout(idle)
  idle = setTimeout(() => {
    idle = null
    if (waiting.size === 0 && worker) {
      const ending = worker
      worker = null
      void ending.terminate()
    }
  }, IDLE_MS)
  idle.unref()
}

/**
 * Parses `bytes` in the worker when they are large, here when they are small. Large bytes are handed
 * over, not copied (a copy of megabytes is itself a pause): they must be the only view of their
 * memory, as a file read into a buffer of its own is, and the caller must not use them after. A
 * worker that fails is an error of this file; the next one starts another.
 */
export async function parseOffThread(bytes: Buffer): Promise<Parsed> {
  if (bytes.length < OFF_THREAD_BYTES) return parseHere(bytes)
  if (idle) clearTimeout(idle)
  try {
    return await new Promise<Parsed>((resolve, reject) => {
      const id = nextId++
      waiting.set(id, { resolve, reject })
      started().postMessage({ id, bytes }, [bytes.buffer as ArrayBuffer])
    })
  } catch (error) {
    return { digest: '', error: { name: 'WorkerError', message: error instanceof Error ? error.message : String(error) } }
  }
}
