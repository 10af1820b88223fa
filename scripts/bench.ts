// npm run bench: throughput and latency of emulator routes, each as a ratio against a bare Fastify
// route serving the same bytes in the same run (the ceiling on this machine, now). A benchmark, not a test.
// BENCH_SECONDS (default 5) and BENCH_CONNECTIONS (default 10) tune a run.
import autocannon from 'autocannon'
import Fastify from 'fastify'
import { startEmulator } from '../src/emulator/index.ts'

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)

interface Case {
  name: string
  path: string
  key?: 'management' | 'standard'
  body?: unknown
  connections?: number
  /** Makes each request's body different (defeats the vector cache: the cold path). */
  vary?: (n: number) => unknown
}

interface Measure {
  rps: number
  p50: number
  p99: number
  errors: number
}

async function measure(
  url: string,
  headers: Record<string, string>,
  body: string | undefined,
  connections: number,
  vary?: (n: number) => unknown,
): Promise<Measure> {
  let n = 0
  const options = {
    url,
    headers,
    connections,
    ...(body !== undefined && { method: 'POST' as const, body }),
    ...(vary && { requests: [{ setupRequest: (request: object) => ({ ...request, body: JSON.stringify(vary(n++)) }) }] }),
  }
  // A short warm-up so JIT, caches and prepared statements settle before the measured run.
  await autocannon({ ...options, duration: 1 })
  const r = await autocannon({ ...options, duration: DURATION_S })
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx }
}

const CASES: Case[] = [
  { name: 'GET /api/v1/models', path: '/api/v1/models' },
  { name: 'GET /api/v1/models?category=programming&supported_parameters=tools', path: '/api/v1/models?category=programming&supported_parameters=tools' },
  { name: 'GET /api/v1/models?output_modalities=embeddings', path: '/api/v1/models?output_modalities=embeddings' },
  { name: 'GET /api/v1/models/user (standard key)', path: '/api/v1/models/user', key: 'standard' },
  { name: 'GET /api/v1/endpoints/zdr', path: '/api/v1/endpoints/zdr' },
  { name: 'GET /api/v1/keys (management key)', path: '/api/v1/keys', key: 'management' },
]

// 16 inputs of about 30 words at 1536 dimensions, as float and as base64; one connection shows latency.
const sentences = Array.from(
  { length: 16 },
  (_, i) =>
    `Sentence ${i} of the benchmark talks about embeddings vectors search ranking and retrieval for a small semantic search demo that a developer runs against the emulator on a laptop`,
)
for (const encoding of ['float', 'base64'] as const) {
  const body = { model: 'openai/text-embedding-3-small', input: sentences, encoding_format: encoding }
  CASES.push({ name: `POST /api/v1/embeddings 16x1536 ${encoding}, 1 conn`, path: '/api/v1/embeddings', key: 'standard', body, connections: 1 })
  CASES.push({ name: `POST /api/v1/embeddings 16x1536 ${encoding}`, path: '/api/v1/embeddings', key: 'standard', body })
  CASES.push({
    name: `POST /api/v1/embeddings 16x1536 ${encoding}, new texts each time`,
    path: '/api/v1/embeddings',
    key: 'standard',
    body,
    vary: (n) => ({ ...body, input: sentences.map((text) => `${text} (request ${n})`) }),
  })
}

CASES.push({
  name: 'POST /router/v1/video/ent/v2/text2video',
  path: '/router/v1/video/ent/v2/text2video',
  key: 'standard',
  body: { model: 'videoq2', prompt: 'A lighthouse at dusk, waves below' },
})

const emulator = await startEmulator({ port: 0, euPort: -1, db: ':memory:', seed: 1, logLevel: 'silent' })
// Enough credits that the benchmark never runs out.
const [account] = ((await (await fetch(`${emulator.url}/_emulator/api/accounts`)).json()) as { data: Array<{ id: string }> }).data
await fetch(`${emulator.url}/_emulator/api/accounts/${account!.id}/credits`, {
  method: 'PUT',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ credits_usd: 1_000_000 }),
})
const bare = Fastify({ logger: false })
const prepared: Array<Case & { headers: Record<string, string>; bytes: number; payload: string | undefined }> = []
for (const [i, c] of CASES.entries()) {
  const payload = c.body === undefined ? undefined : JSON.stringify(c.body)
  const headers: Record<string, string> = {
    ...(c.key && { authorization: `Bearer ${emulator.keys[c.key]}` }),
    ...(payload !== undefined && { 'content-type': 'application/json' }),
  }
  const res = await fetch(`${emulator.url}${c.path}`, { headers, ...(payload !== undefined && { method: 'POST', body: payload }) })
  const body = Buffer.from(await res.arrayBuffer())
  const type = res.headers.get('content-type') ?? 'application/json'
  // The ceiling route reads the same request body and sends the same response bytes.
  bare.route({ method: payload === undefined ? 'GET' : 'POST', url: `/bare/${i}`, handler: (_request, reply) => reply.type(type).send(body) })
  prepared.push({ ...c, headers, bytes: body.length, payload })
}
await bare.listen({ host: '127.0.0.1', port: 0 })
const bareBase = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`

const rows = []
try {
  for (const [i, c] of prepared.entries()) {
    const connections = c.connections ?? CONNECTIONS
    const ceiling = await measure(`${bareBase}/bare/${i}`, c.payload === undefined ? {} : { 'content-type': 'application/json' }, c.payload, connections)
    const route = await measure(`${emulator.url}${c.path}`, c.headers, c.payload, connections, c.vary)
    rows.push({
      route: c.name,
      bytes: c.bytes,
      'req/s': Math.round(route.rps),
      'bare req/s': Math.round(ceiling.rps),
      ratio: Number((route.rps / ceiling.rps).toFixed(2)),
      'p50 ms': route.p50,
      'p99 ms': route.p99,
      errors: route.errors,
    })
  }
} finally {
  await bare.close()
  await emulator.close()
}

console.log(`\n${CONNECTIONS} connections unless said, ${DURATION_S} s per route, Node ${process.version}, peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`)
console.table(rows)

// The journal's cost: the same route with the journal on and off.
{
  const off = await startEmulator({ port: 0, euPort: -1, db: ':memory:', seed: 1, logLevel: 'silent', journalSize: 0 })
  const on = await startEmulator({ port: 0, euPort: -1, db: ':memory:', seed: 1, logLevel: 'silent' })
  const withoutJournal = await measure(`${off.url}/api/v1/models`, {}, undefined, CONNECTIONS)
  const withJournal = await measure(`${on.url}/api/v1/models`, {}, undefined, CONNECTIONS)
  console.log(
    `\nGET /api/v1/models with the journal on: ${Math.round(withJournal.rps)} req/s; off: ${Math.round(withoutJournal.rps)} req/s (${Math.round((1 - withJournal.rps / withoutJournal.rps) * 100)}% cost)`,
  )
  await Promise.all([on.close(), off.close()])
}

// A thousand video tasks carried to success by one clock advance, each calling back a local receiver.
{
  const { createServer } = await import('node:http')
  let received = 0
  const receiver = createServer((req, res) => {
    req.resume().on('end', () => {
      received++
      res.writeHead(200).end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const callbackUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`
  const manual = await startEmulator({ port: 0, euPort: -1, db: ':memory:', seed: 1, logLevel: 'silent', clock: 'manual' })
  const [first] = ((await (await fetch(`${manual.url}/_emulator/api/accounts`)).json()) as { data: Array<{ id: string }> }).data
  await fetch(`${manual.url}/_emulator/api/accounts/${first!.id}/credits`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ credits_usd: 1_000_000 }) })
  const headers = { authorization: `Bearer ${manual.keys.standard}`, 'content-type': 'application/json' }
  const createStart = performance.now()
  for (let i = 0; i < 1000; i++) {
    await fetch(`${manual.url}/router/v1/video/ent/v2/text2video`, { method: 'POST', headers, body: JSON.stringify({ model: 'videoq2', prompt: `task ${i}`, callback_url: callbackUrl }) })
  }
  const created = performance.now() - createStart
  const advanceStart = performance.now()
  await fetch(`${manual.url}/_emulator/api/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ms: 60_000 }) })
  const advanced = performance.now() - advanceStart
  console.log(`\n1000 video tasks: created in ${Math.round(created)} ms (one client, sequential); one clock advance carried them to success with ${received} callbacks delivered in ${Math.round(advanced)} ms`)
  await manual.close()
  receiver.close()
}
