// npm run fuzz: the long fuzz run (FUZZ_RUNS, default 20000; FUZZ_SEED), printing its counts.
import { fuzz } from '../test/integration/fuzz/fuzz.ts'

const runs = Number(process.env.FUZZ_RUNS ?? 20_000)
const seed = Number(process.env.FUZZ_SEED ?? 20261122)
const started = performance.now()
const result = await fuzz(runs, seed)
console.log(`${result.requests} requests in ${Math.round((performance.now() - started) / 1000)} s, seed ${seed}`)
console.log('by status:', result.byStatus)
if (result.failures.length > 0) {
  console.log(`FAILED:\n${result.failures.join('\n')}`)
  process.exit(1)
}
console.log('no 5xx, every error in its envelope, integrity_check ok')
