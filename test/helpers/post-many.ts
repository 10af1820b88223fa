// Sends the same POST many times at once from a process of its own, so the attack's own work (writing
// hundreds of megabytes) is not counted in the heartbeat of the test's process. Run as
// `node --experimental-strip-types post-many.ts <JSON of PostMany>`; prints the answers as JSON.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { request } from 'node:http'

export interface PostMany {
  url: string
  headers: Record<string, string>
  /** A file holding the body. */
  bodyPath: string
  count: number
  /** Send only this many bytes of the body (declaring it whole), then wait for the answer and hang up: a client that stops once refused. */
  partial?: number
}

export interface Answer {
  status: number
  body: any
}

function postOnce(job: PostMany, body: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(job.url, { method: 'POST', headers: { ...job.headers, 'content-length': String(body.length) } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) })
        if (job.partial !== undefined) req.destroy()
      })
    })
    req.on('error', reject)
    if (job.partial === undefined) req.end(body)
    else req.write(body.subarray(0, job.partial))
  })
}

/** Runs the POSTs in a child process; their answers, in the order sent. */
export function postManyFromChild(job: PostMany): Promise<Answer[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', import.meta.filename, JSON.stringify(job)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Answer[]) : reject(new Error(`post-many exited with ${code}`))))
  })
}

if (process.argv[1] === import.meta.filename) {
  const job = JSON.parse(process.argv[2]!) as PostMany
  const body = readFileSync(job.bodyPath)
  const answers = await Promise.all(Array.from({ length: job.count }, () => postOnce(job, body)))
  process.stdout.write(JSON.stringify(answers))
}
