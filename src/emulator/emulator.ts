// createEmulator builds everything without listening (tests use app.inject); startEmulator listens
// on the main port and the EU port. Both return one handle that owns the database and the clock.
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { loadConfig, VERSION, type EmulatorConfig } from './config.ts'
import { createClock, wallClock, type Clock, type ClockState } from './core/clock.ts'
import { http } from './core/node-http.ts'
import { resumeClockAt, saveClockPosition } from './store/clock-position.ts'
import { createContext } from './context.ts'
import type { EmulatorContext } from './modules/module.ts'
import { buildApp } from './http/build-app.ts'
import { limitConnections, markEu, serverOptions } from './http/listeners.ts'
import { checkUpstream } from './http/own-addresses.ts'
import { isLoopbackHost } from './http/admin-guard.ts'
import { randomBytes } from 'node:crypto'
import { commitBatch, openDatabase } from './store/db.ts'
import { lockDatabase } from './store/db-lock.ts'
import { migrate } from './store/migrate.ts'
import { migrations } from './store/migrations/index.ts'
import { defaultAccountId, loadSeed, resetState, SeedMismatchError, seededKeys, storedSeed, type SeededKeys, type SeedPreset } from './store/seed.ts'
import { loadFaker } from './core/faker.ts'
import { backfillDemoUsage } from './modules/activity/activity-demo.service.ts'
import { checkStateOwners } from './modules/state/state.service.ts'

export type EmulatorOptions = Partial<EmulatorConfig> & { config?: string }

export interface Emulator {
  readonly app: FastifyInstance
  readonly config: Readonly<EmulatorConfig>
  readonly clock: Clock
  readonly ctx: EmulatorContext
  /** The seeded default account's keys (management and standard). */
  readonly keys: SeededKeys
  reset(): Promise<void>
  /**
   * Waits until every callback that is due has been attempted: nothing under way, queued or due now
   * (deliveries run in the background, so a clock advance does not wait for them). Resolves false if
   * `timeoutMs` (default 10 s) passes first.
   */
  drainCallbacks(timeoutMs?: number): Promise<boolean>
  /**
   * Stops taking requests, lets those under way finish (for `graceMs` at most, 5 s by default, then
   * their connections are closed), stops the clock and the callbacks, and closes the database.
   */
  close(graceMs?: number): Promise<void>
}

export interface RunningEmulator extends Emulator {
  /** Base of the main listener, e.g. http://127.0.0.1:8710 (the gateway API is under /api/v1). */
  readonly url: string
  /** Base of the EU listener, or null when it is off. */
  readonly euUrl: string | null
  readonly uiUrl: string
  readonly port: number
}

const DEFAULT_DRAIN_TIMEOUT_MS = 10_000
const CLOSE_GRACE_MS = 5_000

/** Programmatic callers get test-friendly defaults: in memory, silent, any free port. */
const PROGRAMMATIC_DEFAULTS: Partial<EmulatorConfig> = { db: ':memory:', port: 0, logLevel: 'silent' }

let migrated: Buffer | undefined

/**
 * An in-memory database with every migration applied, serialized, made once per process: a new
 * ':memory:' emulator starts as a copy of it (its migrations then find nothing to do), since running
 * their DDL again was a tenth of a start, and test suites start one per file or per test.
 */
function migratedImage(): Buffer {
  if (!migrated) {
    const scratch = openDatabase(':memory:')
    try {
      migrate(scratch, migrations)
      migrated = scratch.serialize()
    } finally {
      scratch.close()
    }
  }
  return migrated
}

export async function createEmulator(options: EmulatorOptions = {}, resolved?: Readonly<EmulatorConfig>): Promise<Emulator> {
  const loaded = resolved ?? loadConfig({ options: { ...PROGRAMMATIC_DEFAULTS, ...options } })
  // Beyond loopback the admin API needs a token: without one configured, a new random one. The one
  // secret that is not derived from the seed: a seed is shared (seed 1 is everyone's default), a token
  // must not be guessable.
  const config: Readonly<EmulatorConfig> =
    loaded.adminToken === null && !isLoopbackHost(loaded.host)
      ? Object.freeze({ ...loaded, adminToken: `gwe-admin-${randomBytes(24).toString('base64url')}` })
      : loaded
  const seeds = { default: loadSeed(config.fixtures, 'default'), empty: loadSeed(config.fixtures, 'empty') }
  const configuredPreset: SeedPreset = config.demo ? 'demo' : 'default'
  // Opened first (it makes the folder, and says why a path cannot be a database), then locked before
  // anything is written to it.
  const db = config.db === ':memory:' ? openDatabase(config.db, migratedImage()) : openDatabase(config.db)
  let releaseLock: () => void
  try {
    releaseLock = lockDatabase(config.db, wallClock.iso())
  } catch (error) {
    db.close()
    throw error
  }
  try {
    migrate(db, migrations)
    // --clock-start wins; otherwise a database that has seen the clock move resumes its time.
    const start = config.clockStart !== null ? Date.parse(config.clockStart) : resumeClockAt(db)
    const clock = createClock({
      mode: config.clock,
      ...(start !== undefined && { start }),
      onMove: (position) => {
        if (db.open) saveClockPosition(db, position)
      },
      // Due work run by the clock's timer has no caller to fail: its errors are warnings. (The context
      // is made next, with this clock; the timer starts only once it is.)
      onError: (error) => ctx.warn(`due work failed: ${error instanceof Error ? error.message : String(error)}`),
    })
    const ctx = createContext({ config, version: VERSION, db, clock })
    const callbacks = ctx.services.callbacks.dispatcher
    checkStateOwners(ctx)

    // Replaces the whole state with a preset's, in one transaction (the demo history included).
    const applyPreset = async (preset: SeedPreset): Promise<void> => {
      const makeFaker = preset === 'demo' ? await loadFaker() : null
      resetState(ctx, preset === 'empty' ? seeds.empty : seeds.default, () => {
        if (makeFaker) backfillDemoUsage(ctx, makeFaker, defaultAccountId(ctx)!)
      })
      // Run-time settings back to the configured ones; then every module rebuilds from its tables.
      for (const [, settings] of ctx.state.settings()) settings.restore(settings.defaults())
      ctx.state.changed('reset')
    }
    // A new database gets the configured preset; an existing one keeps its state, which was made
    // with a seed: another seed would print keys that do not work, so it is refused unless --reset.
    const existing = seededKeys(ctx) !== null
    const madeWith = existing ? storedSeed(ctx) : null
    if (existing && !config.reset && madeWith !== null && madeWith !== config.seed) {
      throw new SeedMismatchError(
        `database ${config.db} was made with seed ${madeWith}, and this start asks for seed ${config.seed}: start with --seed ${madeWith} to keep its state, or start fresh from seed ${config.seed} with --reset (its state is discarded) or with another --db`,
      )
    }
    if (!existing || config.reset) await applyPreset(configuredPreset)

    let closed = false
    const seed = async (preset: SeedPreset): Promise<void> => {
      await applyPreset(preset)
      ctx.events.emit('state.reset', { at: clock.nowIso() })
    }
    const reset = (): Promise<void> => seed(configuredPreset)
    const app = buildApp(ctx, { reset, seed })
    await app.ready()
    clock.start()
    // Work that fell due while the emulator was stopped (callbacks still to deliver) runs now.
    void clock.runDue().catch((error: unknown) => ctx.warn(`due work failed at start: ${(error as Error).message}`))

    const emulator: Emulator = {
      app,
      config,
      clock,
      ctx,
      keys: seededKeys(ctx)!,
      reset,
      drainCallbacks: (timeoutMs = DEFAULT_DRAIN_TIMEOUT_MS) => callbacks.drain(timeoutMs),
      async close(graceMs = CLOSE_GRACE_MS) {
        if (closed) return
        closed = true
        // First no new requests, and those under way finish (for `graceMs` at most), so no answer
        // is cut short; then the clock and the callbacks stop (pending ones are sent after a restart),
        // and last the database closes.
        const force = setTimeout(() => app.server.closeAllConnections(), graceMs)
        await Promise.all([app.close(), ...(otherListeners.get(emulator) ?? []).map((server) => closeListener(server, graceMs))])
        clearTimeout(force)
        // Media jobs still waiting fail; the process's worker threads are shared and never waited for.
        ctx.media.close()
        callbacks.stop()
        clock.stop()
        await clock.idle()
        await callbacks.settled()
        commitBatch(db)
        db.close()
        releaseLock()
      },
    }
    return emulator
  } catch (error) {
    if (db.open) db.close()
    releaseLock()
    throw error
  }
}

export class ListenError extends Error {
  override name = 'ListenError'
}

function listenError(error: NodeJS.ErrnoException, host: string, port: number, what: string): ListenError {
  if (error.code === 'EADDRINUSE')
    return new ListenError(`${what} port ${port} on ${host} is already in use (choose another with --port, or --port 0 for any free port)`)
  if (error.code === 'EACCES') return new ListenError(`${what} port ${port} on ${host} needs privileges this process does not have`)
  if (error.code === 'EADDRNOTAVAIL') return new ListenError(`cannot bind ${host}: no such address on this machine`)
  return new ListenError(`cannot listen on ${host}:${port}: ${error.message}`)
}

const hostForUrl = (host: string): string => (host.includes(':') ? `[${host}]` : host)

/** Listeners besides the app's own (the EU one): the emulator's close waits for them too. */
const otherListeners = new WeakMap<Emulator, Server[]>()

/** Closes a listener as the app's own closes: no new connections, requests under way finish within `graceMs`. */
async function closeListener(server: Server, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()))
  server.closeIdleConnections()
  const force = setTimeout(() => server.closeAllConnections(), graceMs)
  await closed
  clearTimeout(force)
}

async function listenEu(app: FastifyInstance, config: Readonly<EmulatorConfig>, port: number): Promise<Server> {
  const host = config.host
  // Same app, same state, same limits: requests are marked as EU and handed to the main server's handler.
  const server = http.createServer(serverOptions(config), (req, res) => {
    markEu(req)
    app.server.emit('request', req, res)
  })
  limitConnections(server, config)
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(listenError(error, host, port, 'EU')))
    server.listen(port, host, () => resolve())
  })
  return server
}

export async function startEmulator(options: EmulatorOptions = {}, resolved?: Readonly<EmulatorConfig>): Promise<RunningEmulator> {
  const emulator = await createEmulator(options, resolved)
  const { config, app } = emulator
  let euServer: Server | null = null
  try {
    try {
      await app.listen({ host: config.host, port: config.port })
    } catch (error) {
      throw listenError(error as NodeJS.ErrnoException, config.host, config.port, 'API')
    }
    const port = (app.server.address() as AddressInfo).port
    emulator.ctx.ownAddresses.add(port)
    if (config.euPort !== -1) {
      const euPort = config.euPort ?? (config.port === 0 ? 0 : port + 1)
      euServer = await listenEu(app, config, euPort)
      otherListeners.set(emulator, [euServer])
      emulator.ctx.ownAddresses.add((euServer.address() as AddressInfo).port)
    }
    if (config.upstream !== null) await checkUpstream(emulator.ctx.ownAddresses, config.upstream, emulator.ctx.warn)
    const base = `http://${hostForUrl(config.host)}`
    const euUrl = euServer ? `${base}:${(euServer.address() as AddressInfo).port}` : null
    return {
      app,
      config,
      clock: emulator.clock,
      ctx: emulator.ctx,
      keys: emulator.keys,
      reset: emulator.reset,
      drainCallbacks: emulator.drainCallbacks,
      url: `${base}:${port}`,
      euUrl,
      uiUrl: `${base}:${port}/_emulator/`,
      port,
      async close(graceMs = CLOSE_GRACE_MS) {
        await emulator.close(graceMs)
      },
    }
  } catch (error) {
    if (euServer) euServer.close()
    await emulator.close()
    throw error
  }
}

export type { ClockState, SeededKeys }
