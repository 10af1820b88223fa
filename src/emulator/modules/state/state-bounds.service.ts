// The bounds of the state's export and import, and why they agree with the bounds on what is stored:
// whatever the export writes of a state within them, the import takes back.
//
// The export has no bound of its own on size (it streams). The largest document of a state within the
// stored bounds (test/unit/state/bounds.test.ts reckons it from them, and fails when one grows past
// this): every account's files (512 MiB) as base64 in their parts, 707 MiB with their rows; 100,000
// file rows, 219 MiB if every name were 255 escaped control characters; generation content (32 MiB)
// and presets (64 MiB) as JSON text, which the document escapes again, about 240 MiB if every character
// were a quote; the other tables' rows, under 100 MiB. That is 1.25 GiB at the very worst, about 1 GiB
// for real content. Usage rows are not bounded (one per billed request, 486 bytes): the import's 2 GiB
// leaves room for half a million at the very worst, two million beside full rooms of real content. A
// state past it (a destination's settings can hold 64 KiB, which the reckoning does not count) is kept
// by its database file (--db), not a document: the import refuses its document with a 413 (at once
// when its length is declared).
//
// The import reads the body as it arrives (state-parse.service.ts) and holds its rows, never its text, so a
// document past V8's largest string (about 512 MiB) imports. Its one write transaction (the state
// replaced whole, so nothing changes when it fails) holds the event loop, for about 5 ms per MB.
// Measured in a CLI process (test/integration/cli/export.load.test.ts, FULL_ROOM=1): a 640 MB document
// (five accounts of full rooms) imports in 11-16 s, of which the write holds the loop 3.3-3.4 s, growing
// the peak memory by about twice its size (its rows, and the transaction's copy of the in-memory pages
// it replaces); a 128 MB one in 2-3.5 s, 0.3-0.5 s of it the write, 1.25-1.7 times its size.
import type { Limit } from '../../core/limits.ts'

const MiB = 1024 * 1024

/** The most bytes of an imported document: the stored bounds' worst case, and room for usage. */
export const IMPORT_BODY_LIMIT = 2048 * MiB

/**
 * The most bytes of one value of an imported document (a row, or the clock or the settings): twice the
 * largest row the export writes (a catalog of 32 MB, whose JSON the document escapes again: 64 MB at
 * the very worst). A larger one is refused as it passes the bound, before it is held.
 */
export const MAX_IMPORT_VALUE_BYTES = 128 * MiB

/** Exports under way at once, per emulator: each reads a snapshot of its own (an in-memory state's is a copy on disk). */
export const MAX_EXPORTS_AT_ONCE = 2

export const STATE_LIMITS: readonly Limit[] = [
  { what: 'State exports under way at once (each reads a snapshot of its own)', value: MAX_EXPORTS_AT_ONCE, unit: 'requests', beyond: '429 with Retry-After' },
  {
    what: 'Bytes of one row (or other value) of an imported state document',
    value: MAX_IMPORT_VALUE_BYTES,
    unit: 'bytes',
    beyond: '413 naming the row, as it passes the bound',
  },
]
