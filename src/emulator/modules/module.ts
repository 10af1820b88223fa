// The module contract. One area of the emulator (accounts, chat, video...) is one folder whose
// `<area>.module.ts` declares, in one place, everything the rest of the emulator needs to know of it:
// its name, the service it offers the other areas (created from the kernel), the state it owns
// (tables, run-time settings, reset and import rules), its work due on the clock, its hooks on the
// gateway's requests, and its routes on the gateway, the video router and the admin API. `modules/index.ts` lists the modules in order;
// the context, the clock and the app are built by walking that list. A new area is a folder, one
// line there, and its migration.
//
// Services are typed by declaration merging: a module adds its own entry to `Services` beside its
// definition (`declare module '../module.ts' { interface Services { accounts: AccountsService } }`),
// so this file imports no area and no area imports another's files to reach its service.
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import type { EmulatorConfig } from '../config.ts'
import type { Clock, DueSource } from '../core/clock.ts'
import type { EmulatorEventBus } from '../core/events.ts'
import type { Ids } from '../core/ids.ts'
import type { StateOwner, StateRegistry } from '../core/lifecycle.ts'
import type { Limit } from '../core/limits.ts'
import type { Setting } from '../core/settings.ts'
import type { MediaQueue } from '../media/media-queue.ts'
import type { OwnAddresses } from '../http/own-addresses.ts'
import type { DB } from '../store/db.ts'

/** What every module is made from: built once per emulator, with no area in it. */
export interface Kernel {
  readonly config: Readonly<EmulatorConfig>
  readonly version: string
  readonly db: DB
  readonly clock: Clock
  readonly ids: Ids
  readonly events: EmulatorEventBus
  /** The emulator's own listeners: a callback URL must not point back at one. */
  readonly ownAddresses: OwnAddresses
  /** Warnings for the operator's log (stderr unless silent). */
  warn(message: string): void
  /** The way to the media worker threads (images, speech, audio), fair between accounts. */
  readonly media: MediaQueue
}

/** The service of each module, by module name; each module declares its own entry. */
// oxlint-disable-next-line no-empty-interface -- filled by declaration merging, one entry per module
export interface Services {}

/** The kernel, every module's service, and the registry of who owns which state. */
export interface EmulatorContext extends Kernel {
  readonly services: Services
  /** Who owns which table and run-time setting: reset, export, import and account reset walk it. */
  readonly state: StateRegistry
}

/** Routes of a module, registered with the context in the scope (and under the prefix) it names. */
export type ModuleRoutes = FastifyPluginAsync<{ ctx: EmulatorContext }>

/** The phases of a gateway request at which hooks are installed, in the order a request meets them. */
export const GATEWAY_STAGES = ['onRequest', 'preValidation', 'preHandler'] as const
export type GatewayStage = (typeof GATEWAY_STAGES)[number]

/**
 * A hook on the gateway scope (attached, from an onRoute hook, to the routes whose `config` asks for
 * it). Hooks are installed by stage, then by `order` (lowest first); a hook may also attach to later
 * phases (the journal's onSend and onResponse), where it keeps its place in that order.
 */
export interface GatewayHook {
  readonly stage: GatewayStage
  readonly order: number
  install(scope: FastifyInstance, ctx: EmulatorContext): void
}

export interface EmulatorModule<Name extends string = string> {
  /** Its folder's name, and the key of its service in `Services`. */
  readonly name: Name
  /**
   * The other modules it uses (their services, functions or errors). Checked: a name that is no
   * module fails the start, and a test reads each folder's imports and `ctx.services` uses against it.
   */
  readonly needs?: readonly string[]
  /**
   * Its service, created in list order: `ctx.services` holds those of the modules before it (use
   * them lazily, in the service's functions, to reach a later one).
   */
  create?(ctx: EmulatorContext): Name extends keyof Services ? Services[Name] : never
  /** The state it owns, in the order export and import walk it. */
  state?(ctx: EmulatorContext): readonly StateOwner[]
  /** Work it has due on the clock (deliveries, task steps, charges). */
  due?(ctx: EmulatorContext): readonly DueSource[]
  /**
   * Its part of the configuration (flags, environment, config file keys): its `<area>.config.ts`, which
   * config.ts merges into the one settings table (`--help`, docs/configuration.md); a test checks that
   * every setting is the kernel's or one module's.
   */
  readonly config?: readonly Setting[]
  /** The bounds it keeps on what it is sent and what it stores, as docs/limits.md lists them (npm run docs:limits). */
  readonly limits?: readonly Limit[]
  /** Its hooks on the gateway's requests (the journal, presets, faults, replay): build-app.ts installs them by stage and order. */
  readonly hooks?: readonly GatewayHook[]
  /** Its gateway routes, under /api/v1, authenticated, journaled and faulted by their `config`. */
  readonly gateway?: ModuleRoutes
  /** Its video router routes, under /router/v1, in the vendor's envelope. */
  readonly router?: ModuleRoutes
  /** Its admin routes, under /_emulator/api, behind the admin guard. */
  readonly admin?: ModuleRoutes
  /** Its pages for a person's browser (full paths under /_emulator), behind the admin and frame guards like the UI. */
  readonly pages?: ModuleRoutes
  /**
   * Redirects at the origin's root to its pages (the real site's /auth), outside every guard, as the
   * favicon: they keep no state and answer everyone the same, and the page they lead to is guarded.
   */
  readonly shortcuts?: ModuleRoutes
}

/** A module's definition, checked against the contract (and its service against its `Services` entry). */
export function defineModule<Name extends string>(module: EmulatorModule<Name>): EmulatorModule<Name> {
  return module
}
