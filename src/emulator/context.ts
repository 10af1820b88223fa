// Everything a module needs, built once per emulator and passed in explicitly: no module reaches
// for time, randomness, ids or the database on its own.
import type { EmulatorConfig } from './config.ts'
import type { Clock } from './core/clock.ts'
import { EmulatorEventBus } from './core/events.ts'
import { createIds, type Ids } from './core/ids.ts'
import { createRng, type Rng } from './core/rng.ts'
import { createAccountsRepo } from './modules/accounts/accounts.repo.ts'
import { createKeysRepo } from './modules/keys/keys.repo.ts'
import { createUsageRepo } from './modules/usage/usage.repo.ts'
import type { DB } from './store/db.ts'
import { createSequences } from './store/sequences.ts'

export interface EmulatorContext {
  readonly config: Readonly<EmulatorConfig>
  readonly version: string
  readonly db: DB
  readonly clock: Clock
  readonly rng: Rng
  readonly ids: Ids
  readonly events: EmulatorEventBus
  readonly repos: {
    readonly accounts: ReturnType<typeof createAccountsRepo>
    readonly keys: ReturnType<typeof createKeysRepo>
    readonly usage: ReturnType<typeof createUsageRepo>
  }
}

export function createContext(config: Readonly<EmulatorConfig>, version: string, db: DB, clock: Clock): EmulatorContext {
  return {
    config,
    version,
    db,
    clock,
    rng: createRng(config.seed),
    ids: createIds(config.seed, createSequences(db)),
    events: new EmulatorEventBus(),
    repos: {
      accounts: createAccountsRepo(db),
      keys: createKeysRepo(db),
      usage: createUsageRepo(db),
    },
  }
}
