// The admin event stream (GET /_emulator/api/events): new journal entries and state changes as
// server-sent events. Each event has an `id:` from one increasing sequence, and the last
// REPLAY_EVENTS are kept, so a client that reconnects with Last-Event-ID (a browser's EventSource does
// by itself) gets what it missed; one that asks for more than is kept gets a `reset` event and reads
// everything again.
//
// Backpressure: a client whose socket stops taking data (res.write returned false) may see at most
// MAX_QUEUED_EVENTS new events pass before its connection is dropped; until the socket drains, those
// events wait in its buffer. Dropping rather than buffering bounds memory whatever a client does
// (a stalled tab, a script that never reads), and costs a well-behaved client nothing: its
// EventSource reconnects with Last-Event-ID and the replay fills the gap.
//
// The replay honours the same backpressure: it is written from the kept events only while the socket
// takes it, and goes on when the socket drains; live events that come meanwhile are kept too, so they
// follow the replay in order. A client that stops reading during its replay holds one socket buffer
// (the frames themselves are the stream's, shared by every client), and falls under the same rule:
// dropped once MAX_QUEUED_EVENTS new events have passed it while its socket pushes back, or, when it
// drains at last, if the event it was to read next is no longer kept (its reconnect gets `reset`).
// So reconnects with an early Last-Event-ID that never read cost a socket buffer each, never a copy
// of the replay each.
//
// At most MAX_SUBSCRIBERS clients are connected at once: one more gets a 503 in the admin API's
// envelope (see journal.admin.ts), and a slot is free again as soon as any client goes. The newcomer
// is refused rather than the oldest closed: closing the oldest would let anyone who opens streams
// push the open inspector out (and its EventSource, coming back, push out another, in a loop),
// whereas a refusal only costs the one who asked for too many.
import type { ServerResponse } from 'node:http'
import type { EmulatorContext } from '../modules/module.ts'
import type { StreamEvents } from './journal.schemas.ts'
import type { Journal } from './journal.ts'

/** Events kept for replay on reconnect. */
export const REPLAY_EVENTS = 1000
/** Events that may pass a client once its socket pushes back, before it is dropped. */
export const MAX_QUEUED_EVENTS = 256
/** Clients connected at once; one more is refused with a 503. */
export const MAX_SUBSCRIBERS = 64
/** The stream's own keep-alive: proxies and idle timeouts do not close a quiet stream. */
const HEARTBEAT_MS = 15_000
/** How long a browser waits before it reconnects. */
const RETRY_MS = 2000

interface Client {
  res: ServerResponse
  /** The socket asked us to wait (res.write returned false) and has not drained since. */
  blocked: boolean
  /** Events published since it asked us to wait. */
  queued: number
  /** While it catches up (a replay): the id of the next kept event to write to it; null once live. */
  next: number | null
}

export class EventStream {
  /** The last REPLAY_EVENTS frames, oldest first; their ids are consecutive. */
  private readonly frames: Array<{ id: number; frame: string }> = []
  private nextId = 1
  private listening = false
  private readonly clients = new Set<Client>()
  private heartbeat: NodeJS.Timeout | undefined
  private readonly ctx: EmulatorContext
  private readonly journal: Journal

  constructor(ctx: EmulatorContext, journal: Journal) {
    this.ctx = ctx
    this.journal = journal
  }

  /** The id of the newest event (0 before any). */
  get lastId(): number {
    return this.nextId - 1
  }

  get clientCount(): number {
    return this.clients.size
  }

  /** No room for one more client (MAX_SUBSCRIBERS are connected). */
  get full(): boolean {
    return this.clients.size >= MAX_SUBSCRIBERS
  }

  // The stream listens from its first client on and keeps listening, so a client that reconnects
  // finds what happened meanwhile. Before anyone ever connected, requests pay nothing for it.
  private listen(): void {
    if (this.listening) return
    this.listening = true
    this.journal.onEntry((entry) => this.publish('journal', entry))
    this.ctx.events.onAny(({ type, payload }) => this.publish(type, payload as StreamEvents[typeof type]))
  }

  private publish<K extends keyof StreamEvents>(type: K, payload: StreamEvents[K]): void {
    const id = this.nextId++
    const frame = `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(payload)}\n\n`
    if (this.frames.length === REPLAY_EVENTS) this.frames.shift()
    this.frames.push({ id, frame })
    for (const client of this.clients) {
      if (client.blocked && ++client.queued > MAX_QUEUED_EVENTS) this.drop(client)
      // A client still catching up reads this one from the kept events, after the replay.
      else if (client.next !== null) this.catchUp(client)
      else if (!client.res.write(frame)) client.blocked = true
    }
  }

  /** Writes kept events to a client that is catching up, while its socket takes them. */
  private catchUp(client: Client): void {
    while (client.next !== null && !client.blocked) {
      if (client.next > this.lastId) {
        client.next = null
        return
      }
      const oldest = this.frames[0]!.id
      // It stalled for so long that what it was to read next is gone: its reconnect gets a reset.
      if (client.next < oldest) {
        this.drop(client)
        return
      }
      const { frame } = this.frames[client.next - oldest]!
      client.next++
      if (!client.res.write(frame)) client.blocked = true
    }
  }

  private drop(client: Client): void {
    this.clients.delete(client)
    client.res.destroy()
  }

  /**
   * Serves one client on a hijacked response. `lastEventId` is the Last-Event-ID header: absent, the
   * stream starts now; otherwise what came after it is replayed first, or `reset` is sent when that
   * is no longer all here (older than what is kept, or an id this process never gave).
   */
  attach(res: ServerResponse, lastEventId: string | undefined): void {
    this.listen()
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' })
    const client: Client = { res, blocked: false, queued: 0, next: null }
    res.on('drain', () => {
      client.blocked = false
      client.queued = 0
      if (client.next !== null && this.clients.has(client)) this.catchUp(client)
    })
    res.once('close', () => {
      this.clients.delete(client)
      if (this.clients.size === 0) this.stopHeartbeat()
    })
    // A block with an id and no data sets the client's last event id without firing an event.
    let opening = `: connected\nretry: ${RETRY_MS}\nid: ${this.lastId}\n\n`
    if (lastEventId !== undefined && lastEventId !== '') {
      const asked = /^\d{1,15}$/.test(lastEventId) ? Number(lastEventId) : NaN
      const oldest = this.frames[0]?.id ?? this.nextId
      if (Number.isNaN(asked) || asked > this.lastId) opening += this.resetFrame('unknown-id')
      else if (asked + 1 < oldest) opening += this.resetFrame('too-old')
      else {
        // The replay's events carry their ids: no opening id.
        opening = `: connected\nretry: ${RETRY_MS}\n\n`
        client.next = asked + 1
      }
    }
    if (!res.write(opening)) client.blocked = true
    this.clients.add(client)
    this.startHeartbeat()
    this.catchUp(client)
  }

  private resetFrame(reason: StreamEvents['reset']['reason']): string {
    const data: StreamEvents['reset'] = { reason, last_event_id: this.lastId }
    return `id: ${this.lastId}\nevent: reset\ndata: ${JSON.stringify(data)}\n\n`
  }

  private startHeartbeat(): void {
    if (this.heartbeat) return
    this.heartbeat = setInterval(() => {
      for (const client of this.clients) if (!client.blocked && !client.res.write(': heartbeat\n\n')) client.blocked = true
    }, HEARTBEAT_MS)
    this.heartbeat.unref()
  }

  private stopHeartbeat(): void {
    clearInterval(this.heartbeat)
    this.heartbeat = undefined
  }

  /** Ends every stream (the emulator is closing: streams never end by themselves). */
  close(): void {
    for (const client of this.clients) client.res.end()
    this.clients.clear()
    this.stopHeartbeat()
  }
}
