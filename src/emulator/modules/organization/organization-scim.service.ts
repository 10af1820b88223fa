// Each account's SCIM directory: the groups its identity provider would push, made up from the seed and
// the account (the same seed and account always give the same groups, ids and times), never stored.
// Groups are read-only here, as over the real API: a mapping gives one of them a role in a workspace.
import { toIso } from '../../core/clock.ts'
import { loadFaker } from '../../core/faker.ts'
import { uuidFromHex } from '../../core/ids.ts'
import { createRng, deriveHex } from '../../core/rng.ts'
import type { AccountRow } from '../accounts/accounts.repo.ts'
import type { ScimGroup } from './organization.schemas.ts'

const DAY_MS = 86_400_000
/** Directories kept made; they are cheap to make again, so the cache only bounds repeated work. */
const CACHED_DIRECTORIES = 256

export interface ScimDirectory {
  /** The account's groups, oldest first. */
  groups(account: AccountRow): Promise<readonly ScimGroup[]>
}

export function createScimDirectory(seed: number): ScimDirectory {
  const cache = new Map<string, readonly ScimGroup[]>()

  async function make(account: AccountRow): Promise<ScimGroup[]> {
    const rng = createRng(seed, `scim-directory:${account.id}`)
    const faker = (await loadFaker())(rng)
    const count = rng.int(4, 9)
    const names = faker.helpers.uniqueArray(() => faker.person.jobArea(), count)
    const groups = names.map((name, i): ScimGroup => {
      // Pushed before the account was seeded here, and last changed some days after that.
      const created = account.created_at - rng.int(30, 720) * DAY_MS - rng.int(0, DAY_MS - 1)
      const updated = Math.min(account.created_at, created + rng.int(0, 29) * DAY_MS)
      const external = rng.chance(0.8) ? `00g${faker.string.alphanumeric(17)}` : null
      return {
        id: uuidFromHex(deriveHex(seed, `scim-group:${account.id}:${i}`, 32)),
        organization_id: account.id,
        external_id: external,
        display_name: name,
        created_at: toIso(created),
        updated_at: toIso(updated),
      }
    })
    return groups.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
  }

  return {
    async groups(account) {
      const key = `${account.id}:${account.created_at}`
      const found = cache.get(key)
      if (found) return found
      const made = await make(account)
      if (cache.size >= CACHED_DIRECTORIES) cache.delete(cache.keys().next().value!)
      cache.set(key, made)
      return made
    },
  }
}
