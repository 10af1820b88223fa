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
}

interface Measure {
  rps: number
  p50: number
  p99: number
  errors: number
}

async function measure(url: string, headers: Record<string, string>): Promise<Measure> {
  // A short warm-up so JIT, caches and prepared statements settle before the measured run.
  await autocannon({ url, headers, connections: CONNECTIONS, duration: 1 })
  const r = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S })
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

const emulator = await startEmulator({ port: 0, euPort: -1, db: ':memory:', seed: 1, logLevel: 'silent' })
const bare = Fastify({ logger: false })
const prepared: Array<Case & { headers: Record<string, string>; bytes: number }> = []
for (const [i, c] of CASES.entries()) {
  const headers: Record<string, string> = c.key ? { authorization: `Bearer ${emulator.keys[c.key]}` } : {}
  const res = await fetch(`${emulator.url}${c.path}`, { headers })
  const body = Buffer.from(await res.arrayBuffer())
  const type = res.headers.get('content-type') ?? 'application/json'
  bare.get(`/bare/${i}`, (_request, reply) => reply.type(type).send(body))
  prepared.push({ ...c, headers, bytes: body.length })
}
await bare.listen({ host: '127.0.0.1', port: 0 })
const bareBase = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`

const rows = []
try {
  for (const [i, c] of prepared.entries()) {
    const ceiling = await measure(`${bareBase}/bare/${i}`, {})
    const route = await measure(`${emulator.url}${c.path}`, c.headers)
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

console.log(`\n${CONNECTIONS} connections, ${DURATION_S} s per route, Node ${process.version}, peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`)
console.table(rows)
