// Writes fixtures/tokenizer/cl100k_base.json: the cl100k_base ranks of gpt-tokenizer (index = rank;
// a string, or the bytes where a token is not whole UTF-8), as JSON. The emulator reads its tokenizer
// from this file rather than the package's module of the same array: JSON.parse builds it in half the
// time and with half the memory that compiling a 100,000-element array literal takes (about 20 MB of
// resident memory for as long as the process lives). Run after upgrading gpt-tokenizer; a unit test
// fails while the file and the package differ.
//   node --experimental-strip-types scripts/generate-token-ranks.ts
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const { default: ranks } = await import('gpt-tokenizer/bpeRanks/cl100k_base')
const target = join(fileURLToPath(new URL('..', import.meta.url)), 'fixtures', 'tokenizer', 'cl100k_base.json')
mkdirSync(dirname(target), { recursive: true })
writeFileSync(target, JSON.stringify(ranks))
console.log(`wrote ${ranks.length} ranks to ${target}`)
