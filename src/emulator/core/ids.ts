// Identifier factories. Every id is a pure function of (seed, label): the seed file's entities use
// fixed labels, and everything created at run time uses a label with a persisted sequence number, so
// the same seed and the same calls give the same ids, and a restart never repeats one.
import { deriveHex } from './rng.ts'

export const KEY_PREFIX = 'sk-gw-v1-'

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/**
 * The first `length` base62 digits of a hex number, least significant first: long division by 62 over
 * 16-bit limbs. It gives the same digits as BigInt arithmetic at a tenth of the cost, which matters
 * because every embeddings response carries one.
 */
function base62(hex: string, length: number): string {
  const limbs: number[] = []
  for (let end = hex.length; end > 0; end -= 4) limbs.unshift(Number.parseInt(hex.slice(Math.max(0, end - 4), end), 16))
  let out = ''
  while (out.length < length) {
    let remainder = 0
    for (let i = 0; i < limbs.length; i++) {
      const current = remainder * 65536 + limbs[i]!
      limbs[i] = Math.floor(current / 62)
      remainder = current % 62
    }
    out += BASE62[remainder]
  }
  return out
}

export function uuidFromHex(hex: string): string {
  // Shaped as a version-4 UUID so strict validators accept it.
  const h = hex.slice(0, 32).split('')
  h[12] = '4'
  h[16] = '89ab'[Number.parseInt(h[16]!, 16) % 4]!
  const s = h.join('')
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`
}

export interface Ids {
  token(label: string): string
  member(label: string): string
  account(label: string): string
  uuid(label: string): string
  /** A label unique for this database: `<kind>#<n>` from a persisted counter. */
  next(kind: string): string
  /** 20 base62 characters, as in generation ids `gen-emb-<unix seconds>-<20 chars>`. */
  generation(label: string): string
  /** 18 decimal digits, like the video vendor's task ids. */
  task(label: string): string
  /** 18 decimal digits for the creation of a finished task, fixed by the task's id. */
  creation(taskId: string): string
}

/** An 18-digit number (no leading zero) from 96 bits of hex. */
const digits18 = (hex: string): string => ((BigInt(`0x${hex}`) % 900_000_000_000_000_000n) + 100_000_000_000_000_000n).toString()

export function createIds(seed: number, nextSequence: (kind: string) => number): Ids {
  return {
    token: (label) => KEY_PREFIX + deriveHex(seed, `token:${label}`, 64),
    member: (label) => `user_${base62(deriveHex(seed, `member:${label}`, 48), 27)}`,
    account: (label) => `acct_${deriveHex(seed, `account:${label}`, 20)}`,
    uuid: (label) => uuidFromHex(deriveHex(seed, `uuid:${label}`, 32)),
    next: (kind) => `${kind}#${nextSequence(kind)}`,
    generation: (label) => base62(deriveHex(seed, `generation:${label}`, 40), 20),
    task: (label) => digits18(deriveHex(seed, `task:${label}`, 24)),
    creation: (taskId) => digits18(deriveHex(seed, `creation:${taskId}`, 24)),
  }
}

/** The label shown for a key: its prefix and a few characters each side, never the whole secret. */
export function maskToken(token: string): string {
  return `${token.slice(0, KEY_PREFIX.length + 3)}...${token.slice(-3)}`
}
