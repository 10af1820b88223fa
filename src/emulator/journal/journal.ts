// The request journal: every gateway and router request, with its times, operation, status,
// duration, caller, the fault that answered it, its bodies (truncated, secrets redacted) and links to
// what it caused (usage rows, video tasks, charges, callback deliveries). A ring in memory, bounded
// by a configurable size; a reset clears it.
import { AsyncLocalStorage } from 'node:async_hooks'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { isShared, PiecesBody, RecordedStream } from '../core/buffers.ts'
import { JournalSlots, parseHeaderLines, type BodyBytes, type Span } from './journal-slots.ts'
import { toIso, wallClock } from '../core/clock.ts'
import type { EmulatorContext } from '../modules/module.ts'
import type { JournalEntry, JournalSummary } from '../admin/types.ts'
import { addRouteHook } from '../http/route-hooks.ts'
import { redact, redactQuery, REDACTED, SECRET_NAME } from '../core/redact.ts'

export type EffectKind = 'usage' | 'task' | 'charge' | 'callback'

// What a request causes is collected where it happens (the ledger, the video service...), without
// those modules knowing about requests: they report into the request's async context, if any.
const effectsStore = new AsyncLocalStorage<JournalEntry['effects']>()
/** Reads cause nothing; they share one empty (never written) set of effects. */
const NO_EFFECTS: JournalEntry['effects'] = Object.freeze({ usage: [], tasks: [], charges: [], callbacks: [] })

interface RequestJournal {
  operation: string
  started: number
  time: number
  wall: number
  payload: unknown
  effects: JournalEntry['effects']
  recorded: boolean
  /** Images, audio and video the answer carried, kept whole for the inspector (keepMedia). */
  media: JournalMedia[] | null
}

/** A file an answer carried (an image, speech, a video), as the inspector shows or plays it. */
export interface JournalMedia {
  contentType: MediaType
  bytes: Buffer
}

/**
 * The types the journal keeps and the admin API serves back: images, audio and video a browser shows
 * as such. Never HTML, SVG or scripts, which would run in the admin API's origin.
 */
export const MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'audio/wav', 'audio/mpeg', 'audio/pcm', 'video/mp4'] as const
export type MediaType = (typeof MEDIA_TYPES)[number]

/**
 * Keeps the files an answer carries with its journal entry, so the inspector can show the image and
 * play the audio even where the body was cut at --journal-body-limit. Bounded by --journal-media-limit
 * over the whole ring (the oldest entries' files go first). Does nothing where the request is not journaled.
 */
export function keepMedia(request: FastifyRequest, media: JournalMedia): void {
  const j = request.journal
  if (!j) return
  ;(j.media ??= []).push(media)
}

declare module 'fastify' {
  interface FastifyRequest {
    /** What the journal notes while the request runs; null where it does not record. */
    journal: RequestJournal | null
  }
}

/**
 * Runs `write` (a SQLite transaction) with the effects it reports held back until it has returned:
 * one that throws, or whose commit fails, has rolled back what it wrote, so what it reported is
 * dropped with it. Nested calls stage into the enclosing one, as savepoints do.
 */
export function withStagedEffects<T>(write: () => T): T {
  const outer = effectsStore.getStore()
  if (!outer || outer === NO_EFFECTS) return write()
  const staged: JournalEntry['effects'] = { usage: [], tasks: [], charges: [], callbacks: [] }
  const result = effectsStore.run(staged, write)
  outer.usage.push(...staged.usage)
  outer.tasks.push(...staged.tasks)
  outer.charges.push(...staged.charges)
  outer.callbacks.push(...staged.callbacks)
  return result
}

export function recordEffect(kind: EffectKind, id: string | number): void {
  const effects = effectsStore.getStore()
  if (!effects) return
  if (kind === 'usage') effects.usage.push(id as number)
  else if (kind === 'task') effects.tasks.push(String(id))
  else if (kind === 'charge') effects.charges.push(String(id))
  else effects.callbacks.push(String(id))
}

const mediaSize = (media: JournalMedia[] | null): number => media?.reduce((n, m) => n + m.bytes.length, 0) ?? 0

/** Bodies larger than this are not kept at all, not even their start. */
const TOO_LARGE = 4 * 1024 * 1024

function redactedHeaders(kept: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(kept)) out[name] = SECRET_NAME.test(name) ? REDACTED : redact(value)
  return out
}

/**
 * What was kept of a body: its first bytes in the entry's slot, a shared body by reference, a note
 * saying why nothing was (too large, a stream), or null for none.
 */
type KeptBody = Span | Buffer | string | null

/** What is kept per request: references and numbers, turned into a JournalEntry only when read. */
interface RawEntry {
  id: number
  time: number
  wall: number
  operation: string
  method: string
  url: string
  status: number
  duration_ms: number
  account_id: string | null
  key_hash: string | null
  fault: string | null
  aborted: boolean
  /** The place in the ring, and so the slot holding the parts below. */
  slot: number
  requestHeaders: Span
  requestBody: KeptBody
  requestBytes: number
  responseHeaders: Span
  responseBody: KeptBody
  responseBytes: number
  effects: JournalEntry['effects']
  /** The answer's files (keepMedia); null when it had none, or once they were dropped for newer ones. */
  media: JournalMedia[] | null
  /** How many files the answer carried, kept or not. */
  mediaCount: number
}

interface Keepable {
  bytes?: BodyBytes
  /** A body built once and shared by many answers: kept by reference. */
  shared?: Buffer
  note?: string
}

export interface JournalFilter {
  status?: number | undefined
  operation?: string | undefined
  path?: string | undefined
  key_hash?: string | undefined
  fault?: string | undefined
  since?: number | undefined
  until?: number | undefined
}

export class Journal {
  private entries: RawEntry[] = []
  /** Index of the oldest entry once the ring is full. */
  private head = 0
  private nextId = 1
  private readonly ctx: EmulatorContext
  private readonly size: number
  private readonly bodyLimit: number
  private readonly slots: JournalSlots
  private readonly listeners = new Set<(entry: JournalSummary) => void>()
  private readonly mediaLimit: number
  /** Bytes of the files the ring's entries hold. */
  private mediaBytes = 0

  constructor(ctx: EmulatorContext) {
    this.ctx = ctx
    this.size = ctx.config.journalSize
    this.bodyLimit = ctx.config.journalBodyLimit
    this.mediaLimit = ctx.config.journalMediaLimit
    this.slots = new JournalSlots(this.size, this.bodyLimit)
  }

  /** One file of an entry's answer, while the journal still holds it. */
  media(id: number, index: number): JournalMedia | undefined {
    return this.entries.find((e) => e.id === id)?.media?.[index]
  }

  get enabled(): boolean {
    return this.size > 0
  }

  onEntry(listener: (entry: JournalSummary) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  clear(): void {
    this.entries = []
    this.head = 0
    this.mediaBytes = 0
    this.slots.clear()
  }

  /**
   * The bytes the ring's slots hold, and the most they can. A shared body is not counted: the catalog
   * holds it whatever the journal does.
   */
  stats(): { entries: number; bytes: number; limit_bytes: number; media_bytes: number; media_limit_bytes: number } {
    return {
      entries: this.entries.length,
      bytes: this.slots.bytes,
      limit_bytes: this.slots.limitBytes,
      media_bytes: this.mediaBytes,
      media_limit_bytes: this.mediaLimit,
    }
  }

  /** Oldest first. */
  private ordered(): RawEntry[] {
    return this.head === 0 ? this.entries.slice() : [...this.entries.slice(this.head), ...this.entries.slice(0, this.head)]
  }

  get(id: number): JournalEntry | undefined {
    const raw = this.entries.find((e) => e.id === id)
    return raw && this.materialize(raw)
  }

  private summary(raw: RawEntry): JournalSummary {
    const [path = '', query = ''] = raw.url.split('?')
    return {
      id: raw.id,
      time: toIso(raw.time),
      wall_time: new Date(raw.wall).toISOString(),
      operation: raw.operation,
      method: raw.method,
      path,
      query: redactQuery(query),
      status: raw.status,
      duration_ms: raw.duration_ms,
      account_id: raw.account_id,
      key_hash: raw.key_hash,
      fault: raw.fault,
      aborted: raw.aborted,
      effects: raw.effects,
      media: Array.from({ length: raw.mediaCount }, (_, index) => {
        const kept = raw.media?.[index]
        return kept ? { index, content_type: kept.contentType, bytes: kept.bytes.length, kept: true } : { index, content_type: null, bytes: null, kept: false }
      }),
    }
  }

  // Redaction, truncation and formatting happen here, when someone reads, not on the request path.
  private materialize(raw: RawEntry): JournalEntry {
    return {
      ...this.summary(raw),
      request: {
        headers: this.headers(raw, raw.requestHeaders),
        body: this.readableText(raw, raw.requestBody, raw.requestBytes),
        body_bytes: raw.requestBytes,
      },
      response: {
        headers: this.headers(raw, raw.responseHeaders),
        body: this.readableText(raw, raw.responseBody, raw.responseBytes),
        body_bytes: raw.responseBytes,
      },
    }
  }

  private headers(raw: RawEntry, span: Span): Record<string, string> {
    return redactedHeaders(parseHeaderLines(this.slots.read(raw.slot, span).toString('utf8')))
  }

  /** A stored body as text; reading the journal never fails, whatever a request stored. */
  private readableText(raw: RawEntry, body: KeptBody, bytes: number): string | null {
    try {
      if (body === null || typeof body === 'string') return body
      return Buffer.isBuffer(body) ? this.text(body.subarray(0, this.bodyLimit), bytes) : this.text(this.slots.read(raw.slot, body), bytes)
    } catch {
      return `(${bytes} bytes that could not be shown)`
    }
  }

  /** Newest first. */
  list(filter: JournalFilter, limit: number, offset: number): { entries: JournalEntry[]; total: number } {
    const matching = this.ordered().filter(
      (e) =>
        (filter.status === undefined || e.status === filter.status) &&
        (filter.operation === undefined || e.operation === filter.operation) &&
        (filter.path === undefined || e.url.split('?')[0]!.includes(filter.path)) &&
        (filter.key_hash === undefined || e.key_hash === filter.key_hash) &&
        (filter.fault === undefined || (filter.fault === 'any' ? e.fault !== null : e.fault === filter.fault)) &&
        (filter.since === undefined || e.time >= filter.since) &&
        (filter.until === undefined || e.time <= filter.until),
    )
    matching.reverse()
    return { entries: matching.slice(offset, offset + limit).map((raw) => this.materialize(raw)), total: matching.length }
  }

  private text(kept: Buffer, bytes: number): string {
    const total = Math.max(bytes, kept.length)
    if (total <= kept.length) return redact(kept.toString('utf8'))
    // A character cut in two at the limit decodes as U+FFFD; it is dropped.
    const start = kept.toString('utf8').replace(/\uFFFD$/, '')
    return `${redact(start)}… (${total - kept.length} more bytes)`
  }

  install(app: FastifyInstance): void {
    if (!this.enabled) return
    const ctx = this.ctx
    app.decorateRequest('journal', null)
    // What the request path pays is kept small: a few numbers and references per request; the
    // formatting happens when someone reads the journal.
    app.addHook('onRoute', (route) => {
      const operation = route.config?.operation
      if (!operation) return
      addRouteHook(route, 'onRequest', (request, _reply, done) => {
        const effects = request.method === 'GET' ? NO_EFFECTS : { usage: [], tasks: [], charges: [], callbacks: [] }
        request.journal = {
          operation,
          started: wallClock.perf(),
          time: ctx.clock.now(),
          wall: wallClock.now(),
          payload: null,
          effects,
          recorded: false,
          media: null,
        }
        // Only writes cause effects; reads skip the cost of an async context.
        if (effects === NO_EFFECTS) done()
        else effectsStore.run(effects, done)
      })
      addRouteHook(route, 'onSend', (request, reply, payload, done) => {
        if (request.journal) request.journal.payload = payload
        // A stream may end with the connection (a cut, a client gone) and never reach onResponse.
        if (payload instanceof RecordedStream) reply.raw.once('close', () => this.recordClosed(request, reply))
        done(null, payload)
      })
      addRouteHook(route, 'onResponse', (request, reply, done) => {
        this.record(request, reply, false)
        done()
      })
    })
  }

  /**
   * Records a stream when its connection closes. This runs in an event listener, outside Fastify's
   * hooks: a throw here would be an uncaught exception, which ends the process. So a failure loses
   * this one entry, with a warning.
   */
  private recordClosed(request: FastifyRequest, reply: FastifyReply): void {
    try {
      this.record(request, reply, !reply.raw.writableFinished)
    } catch (error) {
      this.ctx.warn(
        `journal: could not record a ${request.journal?.operation ?? request.method} request: ${error instanceof Error ? error.message : String(error)}`,
      )
    }
  }

  /** Records a request; `aborted` for one whose connection was closed without an answer (a dropped-connection fault). */
  record(request: FastifyRequest, reply: FastifyReply, aborted: boolean): void {
    const j = request.journal
    if (!j || j.recorded) return
    j.recorded = true
    const payload = j.payload
    const requestBytes = Number(request.headers['content-length'] ?? 0)
    const responseBytes =
      payload instanceof RecordedStream
        ? payload.sentBytes
        : Number(reply.getHeader('content-length') ?? (typeof payload === 'string' || Buffer.isBuffer(payload) ? Buffer.byteLength(payload) : 0))
    // The entry takes the next place in the ring, and its slot.
    const slot = this.entries.length < this.size ? this.entries.length : this.head
    const requestBody = this.keepable(request.bodyText ?? request.body, requestBytes)
    const responseBody = aborted && !reply.raw.headersSent ? null : this.keepable(payload, responseBytes)
    const writer = this.slots.writer(slot)
    const kept = (body: Keepable | null): KeptBody => (body === null ? null : (body.note ?? body.shared ?? writer.body(body.bytes!, this.bodyLimit)))
    this.push({
      id: this.nextId++,
      time: j.time,
      wall: j.wall,
      operation: j.operation,
      method: request.method,
      url: request.url,
      // Aborted before anything was answered: no status; part way through a stream: the status sent.
      status: aborted && !reply.raw.headersSent ? 0 : reply.statusCode,
      duration_ms: Math.round((wallClock.perf() - j.started) * 100) / 100,
      account_id: request.auth?.account.id ?? null,
      key_hash: request.auth?.key.hash ?? null,
      fault: request.fault,
      aborted,
      slot,
      requestHeaders: writer.headers(request.headers),
      requestBody: kept(requestBody),
      requestBytes,
      responseHeaders: writer.headers(aborted && !reply.raw.headersSent ? {} : reply.getHeaders()),
      responseBody: kept(responseBody),
      responseBytes,
      effects: j.effects,
      media: j.media,
      mediaCount: j.media?.length ?? 0,
    })
  }

  /**
   * What of a body can be kept: its bytes (a string, a buffer or pieces; an object as its JSON), or a
   * note saying why not (too large to look at, a stream).
   */
  private keepable(body: unknown, bytes: number): Keepable | null {
    if (body === undefined || body === null) return null
    if (bytes > TOO_LARGE) return { note: `(${bytes} bytes, too large to record)` }
    if (Buffer.isBuffer(body) && isShared(body)) return { shared: body }
    if (body instanceof RecordedStream) return { bytes: body.recorded() }
    if (body instanceof PiecesBody || Buffer.isBuffer(body) || typeof body === 'string') return { bytes: body }
    if (typeof (body as { pipe?: unknown }).pipe === 'function') return { note: '(a stream, not recorded)' }
    return { bytes: JSON.stringify(body) }
  }

  /** Counts the new entry's files, then drops the oldest entries' files (this one's last) until all fit the limit. */
  private keepMediaWithin(entry: RawEntry): void {
    if (entry.media === null) return
    this.mediaBytes += mediaSize(entry.media)
    if (this.mediaBytes <= this.mediaLimit) return
    for (const raw of [...this.ordered().filter((e) => e !== entry), entry]) {
      if (raw.media === null) continue
      this.mediaBytes -= mediaSize(raw.media)
      raw.media = null
      if (this.mediaBytes <= this.mediaLimit) return
    }
  }

  private push(entry: RawEntry): void {
    // A ring: once full, each entry takes the oldest one's place.
    if (this.entries.length < this.size) this.entries.push(entry)
    else {
      this.mediaBytes -= mediaSize(this.entries[this.head]!.media)
      this.entries[this.head] = entry
      this.head = (this.head + 1) % this.size
    }
    this.keepMediaWithin(entry)
    if (this.listeners.size > 0) {
      const summary = this.summary(entry)
      for (const listener of this.listeners) listener(summary)
    }
  }
}
