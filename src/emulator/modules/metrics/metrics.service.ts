// The emulator's Prometheus metrics, in a registry of its own (never prom-client's global one: several
// emulators share a process in a test suite, and each counts only its own requests).
//
// Requests are counted from the journal's entries (Journal.onRecord), so the counters and the journal
// agree by construction (a request refused by authentication, a faulted one, a stream cut part way:
// each is one entry and one count); with the journal off (--journal-size 0) they count nothing. What
// a request costs here is four values appended to a batch. Everything else (the ledger's totals, the
// fixtures' hits, the journal's and the caches' bytes) is read when someone scrapes.
import { createRequire } from 'node:module'
import type { Counter as CounterClass, Gauge as GaugeClass, Histogram as HistogramClass, Registry as RegistryClass } from 'prom-client'
import { NANOS_PER_USD } from '../../core/money.ts'
import { ANSWER_CACHE_CHARS } from '../text/text-answer-cache.service.ts'
import { vectorCacheStats } from '../embeddings/embeddings-cache.service.ts'
import type { EmulatorContext } from '../module.ts'

// prom-client's index also loads its default process metrics, the push gateway, cluster aggregation
// and OpenTelemetry's API: about 28 ms at every start, against 4 ms for the four classes used here.
const load = createRequire(import.meta.url)
const Registry = load('prom-client/lib/registry') as typeof RegistryClass
const Counter = load('prom-client/lib/counter') as typeof CounterClass
const Gauge = load('prom-client/lib/gauge') as typeof GaugeClass
const Histogram = load('prom-client/lib/histogram') as typeof HistogramClass

const PREFIX = 'gateway_emulator_'

/**
 * Seconds from a request's arrival to its last byte: chat answers take a millisecond or less when
 * generated, streams at a paced speed take seconds, and a latency fault can hold one for minutes.
 */
export const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300]

/** Requests counted in one batch at most (see flush). */
const BATCH_REQUESTS = 1024

/** The answer cache counts UTF-16 code units; each is two bytes in memory. */
const BYTES_PER_CHAR = 2

export interface MetricsService {
  /** The exposition's media type: the Prometheus text format, version 0.0.4. */
  readonly contentType: string
  /** Every metric, in the Prometheus text format, with the scrape-time values read now. */
  scrape(): Promise<string>
}

export function createMetricsService(ctx: EmulatorContext): MetricsService {
  const registry = new Registry()
  const registers = [registry]

  // ---- Counted as requests are journaled ---------------------------------------------------------
  const requests = new Counter({
    name: `${PREFIX}requests_total`,
    help: 'Gateway and router requests, by operation id (chat.create) and HTTP status (0: the connection closed before any answer)',
    labelNames: ['operation', 'status'] as const,
    registers,
  })
  const durations = new Histogram({
    name: `${PREFIX}request_duration_seconds`,
    help: "Gateway and router requests' time from arrival to the answer's last byte, by operation id",
    labelNames: ['operation'] as const,
    buckets: DURATION_BUCKETS,
    registers,
  })
  const faults = new Counter({
    name: `${PREFIX}faults_total`,
    help: 'Requests a fault answered or shaped (an error, latency, a dropped connection, a cut stream), by fault rule id (header: X-Emulator-Fault) and operation id',
    labelNames: ['rule', 'operation'] as const,
    registers,
  })
  // A request appends its four values here; they reach the metrics at the next scrape, or once a batch
  // is full. Counted one by one, each request ran prom-client's label hashing and checks cold: about
  // 7 µs of a 250 µs chat, against 1 µs in batches, where the same code runs hot.
  const pending: Array<string | number | null> = []
  const flush = (): void => {
    for (let i = 0; i < pending.length; i += 4) {
      const operation = pending[i] as string
      requests.inc({ operation, status: pending[i + 1] as number })
      durations.observe({ operation }, pending[i + 2] as number)
      const fault = pending[i + 3] as string | null
      if (fault !== null) faults.inc({ rule: fault, operation })
    }
    pending.length = 0
  }
  ctx.services.journal.onRecord((entry) => {
    pending.push(entry.operation, entry.status, entry.duration_ms / 1000, entry.fault)
    if (pending.length >= BATCH_REQUESTS * 4) flush()
  })

  // ---- Read at scrape time -------------------------------------------------------------------------
  // The ledger and the fixtures can shrink (a state or account reset, a deleted fixture, a settled
  // cost): gauges of what is held now, not counters.
  const usageRows = new Gauge({
    name: `${PREFIX}ledger_usage_rows`,
    help: 'Usage rows in the ledger (one per billed request), by operation id and model',
    labelNames: ['operation', 'model'] as const,
    registers,
  })
  const costUsd = new Gauge({
    name: `${PREFIX}ledger_cost_usd`,
    help: "Cost in USD of the ledger's usage rows, by operation id and model",
    labelNames: ['operation', 'model'] as const,
    registers,
  })
  const tokens = new Gauge({
    name: `${PREFIX}ledger_tokens`,
    help: "Tokens of the ledger's usage rows, by operation id, model and kind (prompt, completion, reasoning)",
    labelNames: ['operation', 'model', 'kind'] as const,
    registers,
  })
  const fixtureHits = new Gauge({
    name: `${PREFIX}chat_fixture_hits`,
    help: 'Requests the chat fixtures held now have answered (a deleted fixture takes its hits with it)',
    registers,
  })
  const fixtures = new Gauge({ name: `${PREFIX}chat_fixtures`, help: 'Chat fixtures held, in every account', registers })
  const journalEntries = new Gauge({ name: `${PREFIX}journal_entries`, help: 'Requests the journal holds', registers })
  const journalBytes = new Gauge({
    name: `${PREFIX}journal_bytes`,
    help: "Bytes the journal holds, by part (bodies: headers and bodies; media: answers' images, audio and video)",
    labelNames: ['part'] as const,
    registers,
  })
  const journalLimit = new Gauge({
    name: `${PREFIX}journal_limit_bytes`,
    help: 'The most bytes the journal holds, by part (--journal-size and --journal-body-limit; --journal-media-limit)',
    labelNames: ['part'] as const,
    registers,
  })
  const cacheBytes = new Gauge({
    name: `${PREFIX}cache_bytes`,
    help: "Bytes a cache holds (chat_answers: this emulator's written chat answers; embedding_vectors: shared by the emulators of the process)",
    labelNames: ['cache'] as const,
    registers,
  })
  const cacheLimit = new Gauge({ name: `${PREFIX}cache_limit_bytes`, help: 'The most bytes a cache holds', labelNames: ['cache'] as const, registers })
  const memory = new Gauge({
    name: `${PREFIX}process_memory_bytes`,
    help: "The process's memory, by kind (rss, heap_used, heap_total, external), shared by the emulators of the process",
    labelNames: ['kind'] as const,
    registers,
  })
  const info = new Gauge({ name: `${PREFIX}info`, help: "The emulator's version (always 1)", labelNames: ['version'] as const, registers })
  info.set({ version: ctx.version }, 1)

  const refresh = (): void => {
    flush()
    // Reset first: a model or operation whose rows are gone leaves no stale series behind.
    usageRows.reset()
    costUsd.reset()
    tokens.reset()
    for (const row of ctx.services.usage.totalsByOperationAndModel()) {
      const labels = { operation: row.operation, model: row.model }
      usageRows.set(labels, row.rows)
      costUsd.set(labels, row.cost_nanos / NANOS_PER_USD)
      tokens.set({ ...labels, kind: 'prompt' }, row.prompt_tokens)
      tokens.set({ ...labels, kind: 'completion' }, row.completion_tokens)
      tokens.set({ ...labels, kind: 'reasoning' }, row.reasoning_tokens)
    }
    const held = ctx.services.text.fixtures.totals()
    fixtureHits.set(held.hits)
    fixtures.set(held.fixtures)

    const journal = ctx.services.journal.stats()
    journalEntries.set(journal.entries)
    journalBytes.set({ part: 'bodies' }, journal.bytes)
    journalBytes.set({ part: 'media' }, journal.media_bytes)
    journalLimit.set({ part: 'bodies' }, journal.limit_bytes)
    journalLimit.set({ part: 'media' }, journal.media_limit_bytes)

    const vectors = vectorCacheStats()
    cacheBytes.set({ cache: 'chat_answers' }, ctx.services.text.answers.chars() * BYTES_PER_CHAR)
    cacheLimit.set({ cache: 'chat_answers' }, ANSWER_CACHE_CHARS * BYTES_PER_CHAR)
    cacheBytes.set({ cache: 'embedding_vectors' }, vectors.bytes)
    cacheLimit.set({ cache: 'embedding_vectors' }, vectors.limit_bytes)

    const used = process.memoryUsage()
    memory.set({ kind: 'rss' }, used.rss)
    memory.set({ kind: 'heap_used' }, used.heapUsed)
    memory.set({ kind: 'heap_total' }, used.heapTotal)
    memory.set({ kind: 'external' }, used.external)
  }

  return {
    contentType: registry.contentType,
    scrape: () => {
      refresh()
      return registry.metrics()
    },
  }
}
