// The entry of the media pool's worker threads (pool.ts): one job at a time, as the pool sends them.
// Files go back as transferred memory (no copy); a WAV is written into memory shared with the
// emulator's thread, which is told as each slice of it is final and sends it on meanwhile. A job's
// own refusal (a 400 for audio that is not what it says) goes back as an error; the pool sees a crash.
import { parentPort } from 'node:worker_threads'
import { perform, type JobResult, type MediaJob } from './jobs.ts'
import { toWire } from './media.errors.ts'

/** What the emulator's thread is told of a job. */
export type WorkerReply =
  | { id: number; type: 'progress'; file?: Uint8Array; ready: number }
  | { id: number; type: 'done'; result: JobResult }
  | { id: number; type: 'error'; error: ReturnType<typeof toWire> }

export interface WorkerRequest {
  id: number
  job: MediaJob
}

/** Bytes the thread may hand over whole: memory of their own (not a view into Node's shared pool). */
function owned(bytes: Uint8Array): Uint8Array {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) return bytes
  return new Uint8Array(bytes)
}

function transferOf(result: JobResult): { result: JobResult; transfer: ArrayBuffer[] } {
  switch (result.kind) {
    case 'images': {
      const files = result.files.map(owned)
      return { result: { kind: 'images', files }, transfer: files.map((file) => file.buffer as ArrayBuffer) }
    }
    case 'mp3': {
      const file = owned(result.file)
      return { result: { kind: 'mp3', file }, transfer: [file.buffer as ArrayBuffer] }
    }
    case 'wav':
    case 'audio-probe':
    case 'file-sniff':
      return { result, transfer: [] }
    case 'transcript': {
      const { segments, words } = result.value
      const value = { ...result.value, segments: segments && owned(segments), words: words && owned(words) }
      return { result: { kind: 'transcript', value }, transfer: [value.segments, value.words].flatMap((json) => (json ? [json.buffer as ArrayBuffer] : [])) }
    }
  }
}

const port = parentPort
if (port) {
  port.on('message', ({ id, job }: WorkerRequest) => {
    let sharedFile = false
    perform(
      job,
      (file, ready) => {
        // The shared memory goes once, with the first slice; then only how far it is final.
        const reply: WorkerReply = sharedFile ? { id, type: 'progress', ready } : { id, type: 'progress', file, ready }
        sharedFile = true
        port.postMessage(reply)
      },
      true,
    ).then(
      (done) => {
        const { result, transfer } = transferOf(done)
        port.postMessage({ id, type: 'done', result } satisfies WorkerReply, transfer)
      },
      (error: unknown) => port.postMessage({ id, type: 'error', error: toWire(error) } satisfies WorkerReply),
    )
  })
}
