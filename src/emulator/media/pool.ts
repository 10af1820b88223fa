// A set of worker threads and the fair queue in front of them. One pool serves the whole process
// (tests start many emulators in one, each with the same account ids): threads are made on the first
// job that needs one, up to the count wanted, each with a bounded heap; an idle thread lets the
// process exit, and ends after a while without work. Jobs wait in lanes (one per emulator and
// account), taken round-robin (the lane served longest ago first), at most `perLane` of a lane at
// once: one account's heavy requests queue behind each other, and another account's job waits for
// one job at most. A lane holds a bounded number of jobs, counted from when a place is reserved
// (before billing), so a full lane is a 429 that costs nothing. A thread that dies under a job (out
// of memory, killed) fails that job with a 500; the next job gets a new thread.
import { Worker, type ResourceLimits, type Transferable } from 'node:worker_threads'
import type { ApiError } from '../core/errors.ts'
import type { WorkerReply } from './media-worker.ts'
import { fromWire, mediaClosing, mediaQueueFull, mediaWorkerFailed } from './media.errors.ts'

export interface PoolOptions {
  /** The worker's entry file. */
  worker: URL
  /** Threads when no emulator says (the machine's cores). */
  defaultThreads: number
  /** Jobs one lane may hold waiting (reserved places included), and all lanes together. */
  laneQueue: number
  totalQueue: number
  /** How long a thread without work lives on. */
  idleMs: number
  resourceLimits: ResourceLimits
}

/** A place in a lane, taken before the request is billed: run its job once billed, or release it. */
export interface Ticket {
  run(job: unknown, transfer?: readonly Transferable[], progress?: (reply: ProgressReply) => void): Promise<unknown>
  release(): void
}

export type ProgressReply = Extract<WorkerReply, { type: 'progress' }>

interface Task {
  id: number
  lane: Lane
  job: unknown
  transfer: readonly Transferable[]
  progress: ((reply: ProgressReply) => void) | undefined
  resolve(result: unknown): void
  reject(error: ApiError): void
}

interface Lane {
  key: string
  owner: object
  waiting: Task[]
  running: number
  reserved: number
  /** When it last had a job started (the pool's count of starts): the lane served longest ago goes next. */
  served: number
}

interface Thread {
  worker: Worker
  task: Task | null
  idle: NodeJS.Timeout | null
  /** Why it stopped, once it has said (an uncaught error, out of memory). */
  failure: string | null
  /** Told to end (idle, or beyond the count wanted): it takes no more jobs. */
  ending: boolean
}

export class WorkerPool {
  private readonly options: PoolOptions
  private readonly threads: Thread[] = []
  private readonly lanes = new Map<string, Lane>()
  /** Lanes with jobs waiting. */
  private readonly ready = new Set<Lane>()
  private starts = 0
  /** Thread counts the emulators using the pool ask for: the pool has the largest. */
  private readonly wanted = new Map<object, number>()
  private waitingCount = 0
  private reservedCount = 0
  private nextId = 1

  constructor(options: PoolOptions) {
    this.options = options
  }

  /** Threads the pool runs at most. */
  get size(): number {
    return this.wanted.size === 0 ? this.options.defaultThreads : Math.max(...this.wanted.values())
  }

  /** Jobs of one lane that run at once: half the threads, at least one, so another account always finds one free when there are two. */
  get perLane(): number {
    return Math.max(1, Math.floor(this.size / 2))
  }

  /** An emulator's thread count; it counts until `leave`. */
  join(owner: object, threads: number): void {
    this.wanted.set(owner, threads)
    this.pump()
  }

  /** An emulator is closing: its waiting jobs fail with a 503 and its reserved places are dropped; running ones finish. */
  leave(owner: object): void {
    this.wanted.delete(owner)
    for (const lane of this.lanes.values()) {
      if (lane.owner !== owner) continue
      for (const task of lane.waiting.splice(0)) {
        this.waitingCount--
        task.reject(mediaClosing())
      }
      this.reservedCount -= lane.reserved
      lane.reserved = 0
      this.ready.delete(lane)
      this.dropIfEmpty(lane)
    }
    this.trim()
  }

  /** A place in the lane `key` (of `owner`), or a 429 when the lane or the pool holds as many jobs as it may. */
  reserve(owner: object, key: string): Ticket {
    const lane = this.lanes.get(key) ?? { key, owner, waiting: [], running: 0, reserved: 0, served: 0 }
    if (lane.waiting.length + lane.reserved >= this.options.laneQueue) throw mediaQueueFull(this.options.laneQueue, 'account')
    if (this.waitingCount + this.reservedCount >= this.options.totalQueue) throw mediaQueueFull(this.options.totalQueue, 'emulator')
    this.lanes.set(key, lane)
    lane.reserved++
    this.reservedCount++
    let held = true
    const give = (): boolean => {
      if (!held) return false
      held = false
      // Dropped already if the emulator left meanwhile.
      if (this.lanes.get(key) === lane && lane.reserved > 0) {
        lane.reserved--
        this.reservedCount--
        return true
      }
      return false
    }
    return {
      run: (job, transfer = [], progress) => {
        if (!give()) return Promise.reject(mediaClosing())
        return new Promise<unknown>((resolve, reject) => {
          lane.waiting.push({ id: this.nextId++, lane, job, transfer, progress, resolve, reject })
          this.waitingCount++
          this.ready.add(lane)
          this.pump()
        })
      },
      release: () => {
        if (give()) this.dropIfEmpty(lane)
      },
    }
  }

  /** Ends every thread now (a pool of one's own, in a test: the process's pool lives as long as the process). */
  async close(): Promise<void> {
    await Promise.all(this.threads.map((thread) => thread.worker.terminate()))
  }

  /** Threads alive, busy or idle. */
  get threadCount(): number {
    return this.threads.filter((thread) => !thread.ending).length
  }

  /** The workers busy with a job (for tests that stop one part way). */
  busyWorkers(): Worker[] {
    return this.threads.filter((thread) => thread.task !== null).map((thread) => thread.worker)
  }

  /** Starts waiting jobs while threads are free, taking lanes in turn. */
  private pump(): void {
    while (this.threads.filter((thread) => thread.task !== null).length < this.size) {
      const task = this.nextTask()
      if (!task) return
      this.start(task)
    }
  }

  /** The next job of the lane served longest ago (round-robin; a lane new to the queue goes before one just served). */
  private nextTask(): Task | undefined {
    let next: Lane | undefined
    for (const lane of this.ready) if (lane.running < this.perLane && (next === undefined || lane.served < next.served)) next = lane
    if (!next) return undefined
    const task = next.waiting.shift()!
    this.waitingCount--
    next.running++
    next.served = ++this.starts
    if (next.waiting.length === 0) this.ready.delete(next)
    return task
  }

  private start(task: Task): void {
    const thread = this.threads.find((t) => t.task === null && !t.ending) ?? this.spawn()
    if (thread.idle) clearTimeout(thread.idle)
    thread.idle = null
    thread.task = task
    // A thread at work keeps the process alive, as any request under way does.
    thread.worker.ref()
    thread.worker.postMessage({ id: task.id, job: task.job }, task.transfer)
  }

  private spawn(): Thread {
    const worker = new Worker(this.options.worker, { resourceLimits: this.options.resourceLimits })
    const thread: Thread = { worker, task: null, idle: null, failure: null, ending: false }
    worker.on('message', (reply: WorkerReply) => this.reply(thread, reply))
    worker.on('error', (error: Error & { code?: string }) => {
      thread.failure =
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `it ran out of memory: its heap is ${this.options.resourceLimits.maxOldGenerationSizeMb ?? '?'} MB`
          : `it failed: ${error.message}`
    })
    worker.on('exit', (code) => this.exited(thread, code))
    this.threads.push(thread)
    return thread
  }

  private reply(thread: Thread, reply: WorkerReply): void {
    const task = thread.task
    if (!task || reply.id !== task.id) return
    if (reply.type === 'progress') {
      task.progress?.(reply)
      return
    }
    this.finish(thread, task)
    if (reply.type === 'done') task.resolve(reply.result)
    else task.reject(fromWire(reply.error))
  }

  private finish(thread: Thread, task: Task): void {
    thread.task = null
    task.lane.running--
    this.dropIfEmpty(task.lane)
    thread.worker.unref()
    thread.idle = setTimeout(() => this.end(thread), this.options.idleMs)
    thread.idle.unref()
    this.pump()
    this.trim()
  }

  private exited(thread: Thread, code: number): void {
    const at = this.threads.indexOf(thread)
    if (at >= 0) this.threads.splice(at, 1)
    if (thread.idle) clearTimeout(thread.idle)
    const task = thread.task
    thread.task = null
    if (task) {
      task.lane.running--
      this.dropIfEmpty(task.lane)
      task.reject(mediaWorkerFailed(thread.failure ?? `it was stopped, exit code ${code}`))
    }
    this.pump()
  }

  /** Idle threads beyond the count wanted end now (an emulator that wanted more has closed). */
  private trim(): void {
    const live = this.threads.filter((thread) => !thread.ending)
    const idle = live.filter((thread) => thread.task === null)
    for (let extra = live.length - this.size; extra > 0 && idle.length > 0; extra--) this.end(idle.pop()!)
  }

  private end(thread: Thread): void {
    if (thread.task !== null || thread.ending) return
    thread.ending = true
    if (thread.idle) clearTimeout(thread.idle)
    void thread.worker.terminate()
  }

  private dropIfEmpty(lane: Lane): void {
    if (lane.waiting.length === 0 && lane.running === 0 && lane.reserved === 0 && this.lanes.get(lane.key) === lane) this.lanes.delete(lane.key)
  }
}
