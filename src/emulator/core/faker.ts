// Faker loads on first use only (it is large). Each instance it makes draws from a core/rng stream, so
// its values are fixed by that stream's (seed, label) and no shared instance is seeded and then used.
import type { Faker } from '@faker-js/faker'
import type { Rng } from './rng.ts'

/** A faker whose every draw comes from `rng`. */
export type MakeFaker = (rng: Rng) => Faker

let loading: Promise<MakeFaker> | undefined

export function loadFaker(): Promise<MakeFaker> {
  loading ??= import('@faker-js/faker/locale/en').then(({ faker: english }) => {
    // The class of the English instance: the package's main entry point would load every locale.
    const FakerClass = english.constructor as typeof Faker
    return (rng) =>
      new FakerClass({
        locale: english.rawDefinitions,
        randomizer: {
          next: rng.next,
          seed: () => {
            throw new Error('this faker draws from a core/rng stream: seed that stream instead')
          },
        },
      })
  })
  return loading
}
