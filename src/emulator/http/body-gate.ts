// Large bodies (uploads, media JSON) are taken in a few at a time: at most BODIES_PER_ACCOUNT of one
// account's requests on the gated routes are in flight (read, worked on, answered) at once, and
// BODIES_IN_ALL of everyone's. The rest wait before a byte of their body is read, so TCP holds their
// bytes, not the emulator's memory, and one account's 24 parallel uploads queue behind each other
// instead of stalling every other account. A request leaves the gate when its answer is sent or its
// connection closes (while waiting too); one that waits past --request-timeout gets Node's 408.
import type { FastifyInstance, FastifyRequest, preParsingHookHandler } from 'fastify'
import type { EmulatorContext } from '../modules/module.ts'
import { addRouteHook, WRITE_METHODS } from './route-hooks.ts'

/** One account's gated requests in flight at once. */
export const BODIES_PER_ACCOUNT = 2
/** Everyone's gated requests in flight at once. */
export const BODIES_IN_ALL = 8

interface Waiter {
  account: string
  enter: () => void
}

/** Who is in, who waits: first come, first in, as far as each account's bound allows. */
export class BodyGate {
  private readonly inside = new Map<string, number>()
  private total = 0
  private readonly waiting: Waiter[] = []
  private readonly perAccount: number
  private readonly inAll: number

  constructor(perAccount = BODIES_PER_ACCOUNT, inAll = BODIES_IN_ALL) {
    this.perAccount = perAccount
    this.inAll = inAll
  }

  /** `enter` runs once `account` may go in (now, or when someone leaves); the answer withdraws a waiter. */
  request(account: string, enter: () => void): () => void {
    const waiter = { account, enter }
    if (this.mayEnter(account)) this.admit(waiter)
    else this.waiting.push(waiter)
    return () => {
      const at = this.waiting.indexOf(waiter)
      if (at !== -1) this.waiting.splice(at, 1)
    }
  }

  leave(account: string): void {
    const count = (this.inside.get(account) ?? 1) - 1
    if (count === 0) this.inside.delete(account)
    else this.inside.set(account, count)
    this.total--
    for (let at = 0; at < this.waiting.length && this.total < this.inAll;) {
      const waiter = this.waiting[at]!
      if (this.mayEnter(waiter.account)) {
        this.waiting.splice(at, 1)
        this.admit(waiter)
      } else at++
    }
  }

  /** Requests in flight and waiting, for tests and figures. */
  counts(): { inside: number; waiting: number } {
    return { inside: this.total, waiting: this.waiting.length }
  }

  private mayEnter(account: string): boolean {
    return this.total < this.inAll && (this.inside.get(account) ?? 0) < this.perAccount
  }

  private admit(waiter: Waiter): void {
    this.inside.set(waiter.account, (this.inside.get(waiter.account) ?? 0) + 1)
    this.total++
    waiter.enter()
  }
}

/** One gate per emulator, shared by every gated route (an account's uploads and media requests queue together). */
const gates = new WeakMap<EmulatorContext, BodyGate>()

export function bodyGateOf(ctx: EmulatorContext): BodyGate {
  let gate = gates.get(ctx)
  if (!gate) gates.set(ctx, (gate = new BodyGate()))
  return gate
}

/** Whose a request is: its key's account (the admin API names the account in its path). */
export type AccountOf = (request: FastifyRequest) => string | undefined

const byKey: AccountOf = (request) => request.auth?.account.id

/** The preParsing hook that holds a request at the gate until its account may go in. */
export function throughGate(gate: BodyGate, accountOf: AccountOf = byKey): preParsingHookHandler {
  return (request, reply, payload, done) => {
    const account = accountOf(request)
    // Unauthenticated requests never get this far on the gated API routes; a closed one has nothing to read.
    if (account === undefined || reply.raw.destroyed) return done(null, payload)
    let entered = false
    const withdraw = gate.request(account, () => {
      entered = true
      done(null, payload)
    })
    reply.raw.once('close', () => {
      if (entered) gate.leave(account)
      else withdraw()
    })
  }
}

/** Every route of `scope` that takes a body goes through the emulator's gate (after the scope's other preParsing hooks). */
export function gateBodies(scope: FastifyInstance, ctx: EmulatorContext, accountOf: AccountOf = byKey): void {
  const gate = bodyGateOf(ctx)
  scope.addHook('onRoute', (route) => {
    if ((Array.isArray(route.method) ? route.method : [route.method]).some((m) => WRITE_METHODS.has(m)))
      addRouteHook(route, 'preParsing', throughGate(gate, accountOf))
  })
}
