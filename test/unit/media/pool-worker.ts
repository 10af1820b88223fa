// A worker for the pool's own tests, speaking the media worker's protocol: jobs that take a while,
// fail in the job's own words, exit, or run out of memory, on demand.
import { parentPort } from 'node:worker_threads'

type Job = { echo: unknown } | { spin: number; value: unknown } | { refuse: string } | { exit: number } | { oom: true } | { slices: number }

const port = parentPort!
port.on('message', ({ id, job }: { id: number; job: Job }) => {
  if ('echo' in job) port.postMessage({ id, type: 'done', result: job.echo })
  else if ('spin' in job) {
    const until = performance.now() + job.spin
    while (performance.now() < until);
    port.postMessage({ id, type: 'done', result: job.value })
  } else if ('refuse' in job)
    port.postMessage({ id, type: 'error', error: { api: { status: 400, message: job.refuse, headers: {}, metadata: { field: 'input' } } } })
  else if ('exit' in job) process.exit(job.exit)
  else if ('oom' in job) {
    const hoard: number[][] = []
    for (;;) hoard.push(Array.from({ length: 100_000 }, (_, i) => i + 0.5))
  } else {
    for (let i = 1; i <= job.slices; i++) port.postMessage({ id, type: 'progress', ready: i })
    port.postMessage({ id, type: 'done', result: 'sliced' })
  }
})
