// Everything a module needs, built once per emulator and passed in explicitly: no module reaches
// for time, randomness, ids or the database on its own. The kernel first, then each module of
// modules/index.ts in order: its service, its state, its due work on the clock.
import type { EmulatorConfig } from './config.ts'
import type { Clock } from './core/clock.ts'
import { EmulatorEventBus } from './core/events.ts'
import { createIds } from './core/ids.ts'
import { StateRegistry } from './core/lifecycle.ts'
import { createMediaQueue } from './media/media-queue.ts'
import { OwnAddresses } from './http/own-addresses.ts'
import { MODULES } from './modules/index.ts'
import type { EmulatorContext, Services } from './modules/module.ts'
import type { DB } from './store/db.ts'
import { createSequences } from './store/sequences.ts'

export interface ContextInputs {
  config: Readonly<EmulatorConfig>
  version: string
  db: DB
  clock: Clock
}

export function createContext({ config, version, db, clock }: ContextInputs): EmulatorContext {
  const warn = (message: string): void => {
    if (config.logLevel !== 'silent' && config.logLevel !== 'error') process.stderr.write(`gateway-emulator: warning: ${message}\n`)
  }
  const services = {} as Record<string, unknown>
  const ctx: EmulatorContext = {
    config,
    version,
    db,
    clock,
    ids: createIds(config.seed, createSequences(db)),
    ownAddresses: new OwnAddresses(config),
    events: new EmulatorEventBus(),
    warn,
    media: createMediaQueue(config.mediaThreads),
    services: services as unknown as Services,
    state: new StateRegistry(),
  }
  const names = new Set(MODULES.map((module) => module.name))
  for (const module of MODULES) {
    const unknown = module.needs?.find((need) => !names.has(need))
    if (unknown !== undefined) throw new Error(`module ${module.name} needs ${unknown}, which is not in modules/index.ts`)
    if (module.create) services[module.name] = module.create(ctx)
    for (const owner of module.state?.(ctx) ?? []) ctx.state.add(owner)
  }
  // Due work after every service exists: a source may use any of them.
  for (const module of MODULES) for (const source of module.due?.(ctx) ?? []) clock.addSource(source)
  return ctx
}
