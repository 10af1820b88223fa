// Faker loads on first use only (it is large); callers seed it right before a synchronous run of
// calls, so the shared instance gives the same values for the same seed.
import type { Faker } from '@faker-js/faker'

let loading: Promise<Faker> | undefined

export function loadFaker(): Promise<Faker> {
  loading ??= import('@faker-js/faker/locale/en').then((module) => module.faker)
  return loading
}
