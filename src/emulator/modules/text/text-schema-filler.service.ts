// Values for JSON Schemas (tool arguments, structured outputs), made by json-schema-faker in a worker
// thread under a budget of time and memory. The generator is synchronous and its cost depends on the
// schema in ways no check before it can foresee, so in the emulator's own thread one schema could stop
// every request; in a worker it can only use up its own budget. A job past its time ends with its
// worker (the next job starts a new one), and is answered with a 400 naming the schema. The same
// seed gives the same value, in the worker as it would in the emulator's thread.
import { Worker } from 'node:worker_threads'
import { fieldError } from '../../core/errors.ts'

/** The most time one request's values may take to generate, all choices together. */
export const FILL_MS = 2000
/** The worker's heap: a schema that needs more is refused, the emulator's own heap is untouched. */
const HEAP_MB = 256

/** Options of the generator, as they have always been (changing them changes every seeded value). */
const GENERATOR_OPTIONS = { maxDepth: 6, maxDefaultItems: 3, optionalsProbability: 0.5 }

export interface FillJob {
  schema: Record<string, unknown>
  seed: number
  /** Where the schema is in the request, for the 400 if it cannot be filled. */
  field: string
}

// CommonJS, evaluated by the worker: it loads the generator from the path the emulator resolved, so it
// works alike from the sources, the bundled CLI and the desktop app.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const loading = import(workerData.generator)
parentPort.on('message', ({ schema, seed }) => {
  loading.then(
    ({ generateSync }) => {
      let reply
      try {
        const json = JSON.stringify(generateSync(schema, { ...workerData.options, seed }))
        reply = { json: json === undefined ? 'null' : json }
      } catch (error) {
        reply = { error: error instanceof Error ? error.message : String(error) }
      }
      parentPort.postMessage(reply)
    },
    (error) => parentPort.postMessage({ error: 'the generator did not load: ' + String(error && error.message) }),
  )
})
`

type Reply = { json: string } | { error: string }

export class SchemaFiller {
  private worker: Worker | null = null
  /** Jobs run one at a time, in order. */
  private queue: Promise<unknown> = Promise.resolve()
  private closed = false

  /** The JSON of a value for each job, in order; a 400 naming the job's field if one cannot be made. */
  fill(jobs: readonly FillJob[]): Promise<string[]> {
    if (jobs.length === 0) return Promise.resolve([])
    const run = this.queue.then(() => this.runAll(jobs))
    this.queue = run.catch(() => undefined)
    return run
  }

  async close(): Promise<void> {
    this.closed = true
    const worker = this.worker
    this.worker = null
    await worker?.terminate()
  }

  private async runAll(jobs: readonly FillJob[]): Promise<string[]> {
    const deadline = performance.now() + FILL_MS
    const out: string[] = []
    for (const job of jobs) out.push(await this.runOne(job, deadline - performance.now()))
    return out
  }

  private start(): Worker {
    if (this.closed) throw new Error('the emulator is closing')
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { generator: import.meta.resolve('json-schema-faker'), options: GENERATOR_OPTIONS },
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB, maxYoungGenerationSizeMb: 32 },
      stdout: true,
      stderr: true,
    })
    worker.unref() // an idle worker never keeps the process alive
    // The generator's own warnings (an unknown format) are not the emulator's output.
    worker.stdout.resume()
    worker.stderr.resume()
    this.worker = worker
    return worker
  }

  private runOne(job: FillJob, ms: number): Promise<string> {
    const worker = this.worker ?? this.start()
    return new Promise<string>((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer)
        worker.off('message', onMessage)
        worker.off('error', onError)
        worker.off('exit', onExit)
      }
      // The worker is given up on: the next job starts a new one.
      const fail = (issue: string): void => {
        done()
        if (this.worker === worker) this.worker = null
        void worker.terminate()
        reject(fieldError(job.field, issue))
      }
      const onMessage = (reply: Reply): void => {
        done()
        if ('json' in reply) resolve(reply.json)
        else reject(fieldError(job.field, `cannot be filled with a value: ${reply.error}`))
      }
      const onError = (error: Error & { code?: string }): void =>
        fail(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? `needs more than ${HEAP_MB} MB to fill with a value: lower its bounds (minItems, minLength, enum sizes)`
            : `cannot be filled with a value: ${error.message}`,
        )
      const onExit = (): void => fail('cannot be filled with a value: the generator stopped')
      const timer = setTimeout(
        () => fail(`could not be filled with a value within ${FILL_MS} ms: lower its bounds (minItems, minLength, patterns, enum sizes)`),
        Math.max(1, ms),
      )
      worker.on('message', onMessage)
      worker.on('error', onError)
      worker.on('exit', onExit)
      worker.postMessage({ schema: job.schema, seed: job.seed })
    })
  }
}
