// npm run bench: throughput and latency of emulator routes, as ratios against a bare Fastify route
// serving the same bytes in the same run (the ceiling on this machine, now). A benchmark, not a test.
import autocannon from 'autocannon'
import Fastify from 'fastify'
import { startEmulator } from '../src/emulator/index.ts'

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)

interface Case {
  name: string
  url: string
  headers?: Record<string, string>
}

interface Row {
  name: string
  rps: number
  p50: number
  p99: number
  errors: number
}

async function measure(c: Case): Promise<Row> {
  // A short warm-up so JIT and prepared statements settle before the measured run.
  await autocannon({ url: c.url, headers: c.headers ?? {}, connections: CONNECTIONS, duration: 1 })
  const result = await autocannon({ url: c.url, headers: c.headers ?? {}, connections: CONNECTIONS, duration: DURATION_S })
  return { name: c.name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx }
}

const emulator = await startEmulator({ port: 0, euPort: -1, db: ':memory:', seed: 1, logLevel: 'silent' })
const auth = { authorization: `Bearer ${emulator.keys.management}` }
const keysBody = await (await fetch(`${emulator.url}/api/v1/keys`, { headers: auth })).text()

const bare = Fastify({ logger: false })
bare.get('/bare', (_request, reply) => reply.type('application/json; charset=utf-8').send(keysBody))
await bare.listen({ host: '127.0.0.1', port: 0 })
const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/bare`

const rows: Row[] = []
try {
  rows.push(await measure({ name: 'bare Fastify route (same bytes)', url: bareUrl }))
  rows.push(await measure({ name: 'GET /api/v1/keys', url: `${emulator.url}/api/v1/keys`, headers: auth }))
  rows.push(await measure({ name: 'GET /_emulator/api/health', url: `${emulator.url}/_emulator/api/health` }))
} finally {
  await bare.close()
  await emulator.close()
}

const ceiling = rows[0]!.rps
const table = rows.map((r) => ({
  route: r.name,
  'req/s': Math.round(r.rps),
  'vs bare': `${Math.round((r.rps / ceiling) * 100)}%`,
  'p50 ms': r.p50,
  'p99 ms': r.p99,
  errors: r.errors,
}))
console.log(`\n${CONNECTIONS} connections, ${DURATION_S} s per route, Node ${process.version}, peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`)
console.table(table)
