// Each emulator's way to the process's media pool (pool.ts): a place in the caller's account's lane,
// taken before the request is billed (a full lane is a 429 that costs nothing), then the job, run in
// a worker thread, or here when it is too small to pay for the hop (jobs.ts). Lanes are keyed by the
// emulator and the account: two emulators of one seed have the same account ids, and share no lane.
import { availableParallelism } from 'node:os'
import { perform, runsInline, type JobResult, type MediaJob, type WavProgress } from './jobs.ts'
import { mediaClosing } from './media.errors.ts'
import { WorkerPool, type Ticket } from './pool.ts'

/** Jobs one account may have waiting (besides those running), and every account together. */
export const MEDIA_QUEUE_PER_ACCOUNT = 16
export const MEDIA_QUEUE_TOTAL = 256
/** A worker's heap: a job that needs more fails alone (a 500), the emulator's heap is untouched. Files are outside it. */
export const MEDIA_WORKER_HEAP_MB = 256
/** A thread without work for this long ends (the next job starts another). */
const IDLE_MS = 10_000
/**
 * Threads when no --media-threads says: the machine's cores, at most 4 (two accounts' jobs at once,
 * two of each), which bounds what the workers hold to about four jobs' memory (200 MB for the largest).
 */
export const defaultMediaThreads = (): number => Math.min(4, availableParallelism())

// The worker's file beside this one, in the form this one runs as: .ts from the sources, .js once
// built (dist/, the CLI bundle and the desktop app's main bundle, where it is an entry of its own).
// The base is a variable so no bundler mistakes this for an asset to copy and rename.
const here = import.meta.url
const WORKER = new URL(`./media-worker${here.endsWith('.ts') ? '.ts' : '.js'}`, here)

let shared: WorkerPool | undefined

/** The process's pool, made on first use. */
export function mediaPool(): WorkerPool {
  shared ??= new WorkerPool({
    worker: WORKER,
    defaultThreads: defaultMediaThreads(),
    laneQueue: MEDIA_QUEUE_PER_ACCOUNT,
    totalQueue: MEDIA_QUEUE_TOTAL,
    idleMs: IDLE_MS,
    resourceLimits: { maxOldGenerationSizeMb: MEDIA_WORKER_HEAP_MB, maxYoungGenerationSizeMb: 32 },
  })
  return shared
}

export interface MediaQueue {
  /** A place in the account's lane, or a 429 when it (or the pool) is full. Take it before billing. */
  reserve(accountId: string): MediaTicket
  /** The emulator is closing: its waiting jobs fail with a 503, new ones are refused. Never waits. */
  close(): void
}

export interface MediaTicket {
  /** Runs the job in the place held (a WAV's progress is told as it is written). */
  run(job: MediaJob, progress?: WavProgress): Promise<JobResult>
  /** Gives the place back unused (a refusal after it was taken); nothing once the job runs. */
  release(): void
}

let emulators = 0

/** The queue of one emulator; `threads` is its --media-threads (null: the default). */
export function createMediaQueue(threads: number | null): MediaQueue {
  const owner = { emulator: ++emulators }
  let joined = false
  let closed = false
  return {
    reserve(accountId) {
      if (closed) throw mediaClosing()
      const pool = mediaPool()
      if (!joined) pool.join(owner, threads ?? defaultMediaThreads())
      joined = true
      const ticket = pool.reserve(owner, `${owner.emulator}\u0000${accountId}`)
      return {
        run(job, progress = () => {}) {
          if (!runsInline(job)) return runInPool(ticket, job, progress)
          ticket.release()
          return perform(job, progress, false)
        },
        release: () => ticket.release(),
      }
    },
    close() {
      if (closed) return
      closed = true
      if (joined) mediaPool().leave(owner)
    },
  }
}

async function runInPool(ticket: Ticket, job: MediaJob, progress: WavProgress): Promise<JobResult> {
  let file: Uint8Array | undefined
  const { message, transfer } = handedOver(job)
  return (await ticket.run(message, transfer, (reply) => {
    file = reply.file ?? file
    if (file) progress(file, reply.ready)
  })) as JobResult
}

/**
 * The job as it goes to the worker: audio of its own memory is handed over whole (the caller's buffer
 * is emptied), else copied; everything else is small and copied.
 */
function handedOver(job: MediaJob): { message: MediaJob; transfer: ArrayBuffer[] } {
  if (job.kind !== 'audio-probe') return { message: job, transfer: [] }
  const audio = job.audio
  const whole = audio.byteOffset === 0 && audio.byteLength === audio.buffer.byteLength && audio.buffer instanceof ArrayBuffer
  const own = whole ? audio : new Uint8Array(audio)
  return { message: { ...job, audio: own }, transfer: [own.buffer as ArrayBuffer] }
}
