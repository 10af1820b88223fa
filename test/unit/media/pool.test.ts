// The media pool on its own, with a test worker (pool-worker.ts): threads made on demand and ended
// when idle, lanes taken in turn (one account's queue delays another's job by one job at most), the
// bound on a lane and on the pool (a 429 before anything runs), a worker that dies or runs out of
// memory failing only its job (a 500), an emulator leaving (its waiting jobs 503), and progress.
import { afterEach, describe, expect, it } from 'vitest'
import { ApiError } from '../../../src/emulator/core/errors.ts'
import { WorkerPool, type PoolOptions } from '../../../src/emulator/media/pool.ts'

const WORKER = new URL('./pool-worker.ts', import.meta.url)
const pools: Array<{ pool: WorkerPool; owner: object }> = []

function makePool(threads: number, options: Partial<PoolOptions> = {}): { pool: WorkerPool; owner: object } {
  const pool = new WorkerPool({
    worker: WORKER,
    defaultThreads: threads,
    laneQueue: 16,
    totalQueue: 64,
    idleMs: 60_000,
    resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
    ...options,
  })
  const owner = {}
  pool.join(owner, threads)
  pools.push({ pool, owner })
  return { pool, owner }
}

afterEach(async () => {
  for (const { pool } of pools.splice(0)) await pool.close()
})

async function waitFor(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5))
}

const caught = async (promise: Promise<unknown>): Promise<ApiError> => {
  try {
    await promise
  } catch (error) {
    return error as ApiError
  }
  throw new Error('expected a refusal')
}

describe('the media pool', () => {
  it('makes threads only when a job needs one, and gives each job its answer', async () => {
    const { pool, owner } = makePool(2)
    expect(pool.threadCount).toBe(0)
    const answers = await Promise.all([1, 2, 3].map((n) => pool.reserve(owner, `lane-${n}`).run({ echo: { n } })))
    expect(answers).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }])
    expect(pool.threadCount).toBe(2)
  })

  it('takes lanes in turn: one lane’s queue delays another lane’s job by one job at most', async () => {
    const { pool, owner } = makePool(1)
    const order: string[] = []
    const run = (lane: string, value: string) =>
      pool
        .reserve(owner, lane)
        .run({ spin: 40, value })
        .then(() => order.push(value))
    const heavy = ['a1', 'a2', 'a3', 'a4'].map((value) => run('a', value))
    const light = run('b', 'b1')
    await Promise.all([...heavy, light])
    // a1 was running when b1 came; b1 goes next, before the rest of a's queue.
    expect(order).toEqual(['a1', 'b1', 'a2', 'a3', 'a4'])
  })

  it('runs at most half the threads (at least one) of one lane at once, so another lane finds one free', async () => {
    const { pool, owner } = makePool(2)
    expect(pool.perLane).toBe(1)
    // Two threads made first, so what follows measures the queue, not a thread's start.
    await Promise.all([pool.reserve(owner, 'x').run({ spin: 100, value: 0 }), pool.reserve(owner, 'y').run({ spin: 100, value: 0 })])
    const done: string[] = []
    const heavy = Array.from({ length: 3 }, (_, i) =>
      pool
        .reserve(owner, 'a')
        .run({ spin: 400, value: 'a' })
        .then(() => done.push(`a${i + 1}`)),
    )
    await waitFor(() => pool.busyWorkers().length === 1)
    // One of a's jobs runs, two wait, and a thread is idle: b takes it at once.
    await pool
      .reserve(owner, 'b')
      .run({ echo: 'b' })
      .then(() => done.push('b'))
    await Promise.all(heavy)
    expect(done).toEqual(['b', 'a1', 'a2', 'a3'])
  })

  it('bounds each lane’s queue, reserved places included, with a 429 naming the limit; running jobs do not count', async () => {
    const { pool, owner } = makePool(1, { laneQueue: 2 })
    const running = pool.reserve(owner, 'a').run({ spin: 200, value: 1 })
    await waitFor(() => pool.busyWorkers().length === 1)
    const first = pool.reserve(owner, 'a')
    const second = pool.reserve(owner, 'a')
    const refused = (() => {
      try {
        pool.reserve(owner, 'a')
      } catch (error) {
        return error as ApiError
      }
      throw new Error('expected a 429')
    })()
    expect(refused).toBeInstanceOf(ApiError)
    expect(refused.status).toBe(429)
    expect(refused.headers['retry-after']).toBe('1')
    expect(refused.message).toContain('2 images, speeches or transcriptions of this account are already waiting')
    expect(refused.metadata).toEqual({ limit_source: 'media_queue_account', limit: 2 })
    // Another lane has its own room; a released place frees one.
    pool.reserve(owner, 'b').release()
    first.release()
    const third = pool.reserve(owner, 'a')
    await Promise.all([running, second.run({ echo: 2 }), third.run({ echo: 3 })])
  })

  it('bounds every lane together', async () => {
    const { pool, owner } = makePool(1, { laneQueue: 5, totalQueue: 3 })
    const held = ['a', 'b', 'c'].map((lane) => pool.reserve(owner, lane))
    const refused = (() => {
      try {
        pool.reserve(owner, 'd')
      } catch (error) {
        return error as ApiError
      }
      throw new Error('expected a 429')
    })()
    expect(refused.status).toBe(429)
    expect(refused.metadata).toEqual({ limit_source: 'media_queue', limit: 3 })
    for (const ticket of held) ticket.release()
  })

  it('fails only the job of a worker killed part way (a 500 saying so); the next job gets a new thread', async () => {
    const { pool, owner } = makePool(1)
    const killed = pool.reserve(owner, 'a').run({ spin: 5_000, value: 'never' })
    await waitFor(() => pool.busyWorkers().length === 1)
    await pool.busyWorkers()[0]!.terminate()
    const error = await caught(killed)
    expect(error.status).toBe(500)
    expect(error.message).toMatch(/^The emulator's media worker stopped while making this answer \(it was stopped, exit code \d+\)/)
    expect(await pool.reserve(owner, 'a').run({ echo: 'next' })).toBe('next')
  })

  it('fails the job of a worker that exits or runs out of memory, with a 500 that says why', async () => {
    const { pool, owner } = makePool(1)
    expect((await caught(pool.reserve(owner, 'a').run({ exit: 3 }))).message).toContain('exit code 3')
    const oom = await caught(pool.reserve(owner, 'a').run({ oom: true }))
    expect(oom.status).toBe(500)
    expect(oom.message).toContain('it ran out of memory: its heap is 16 MB')
    expect(await pool.reserve(owner, 'a').run({ echo: 'after' })).toBe('after')
  })

  it('passes a job’s own refusal back as it was made', async () => {
    const { pool, owner } = makePool(1)
    const error = await caught(pool.reserve(owner, 'a').run({ refuse: 'Field `input` is not audio' }))
    expect(error).toBeInstanceOf(ApiError)
    expect(error.status).toBe(400)
    expect(error.message).toBe('Field `input` is not audio')
    expect(error.metadata).toEqual({ field: 'input' })
  })

  it('tells progress as the worker reports it, then the answer', async () => {
    const { pool, owner } = makePool(1)
    const seen: number[] = []
    expect(await pool.reserve(owner, 'a').run({ slices: 3 }, [], (reply) => seen.push(reply.ready))).toBe('sliced')
    expect(seen).toEqual([1, 2, 3])
  })

  it('an emulator leaving: its waiting jobs fail with a 503, its places are dropped, a running job finishes', async () => {
    const { pool, owner } = makePool(1)
    const other = {}
    pool.join(other, 1)
    const running = pool.reserve(owner, 'a').run({ spin: 150, value: 'done' })
    await waitFor(() => pool.busyWorkers().length === 1)
    const waiting = pool.reserve(owner, 'a').run({ echo: 'late' })
    const held = pool.reserve(owner, 'b')
    // Lane keys name the emulator too (media-queue.ts): the other emulator's lane of the same account is its own.
    const elsewhere = pool.reserve(other, 'other:a').run({ echo: 'other' })
    pool.leave(owner)
    const error = await caught(waiting)
    expect(error.status).toBe(503)
    expect(error.headers['retry-after']).toBe('1')
    expect((await caught(held.run({ echo: 'never' }))).status).toBe(503)
    expect(await running).toBe('done')
    expect(await elsewhere).toBe('other')
    pool.leave(other)
  })

  it('ends a thread that has been idle for a while; an idle thread does not keep the process alive', async () => {
    const { pool, owner } = makePool(1, { idleMs: 50 })
    await pool.reserve(owner, 'a').run({ echo: 1 })
    expect(pool.threadCount).toBe(1)
    await waitFor(() => pool.threadCount === 0)
    expect(await pool.reserve(owner, 'a').run({ echo: 2 })).toBe(2)
  })
})
