// The import takes whatever the export writes of a state within the stored bounds: the largest such
// document, reckoned from the bounds themselves (the tables that hold content at their worst, every
// text escaped as much as JSON escapes it; the others' rows twice as large as measured), is under the
// import's body limit, with room left for usage rows (which are not bounded). When a stored bound
// grows past what the import takes, this fails.
import { describe, expect, it } from 'vitest'
import { MAX_TOTAL_CREDENTIALS } from '../../../src/emulator/modules/byok/byok.schemas.ts'
import { FILE_PART_BYTES, MAX_FILENAME_CHARS, MAX_TOTAL_FILE_BYTES, MAX_TOTAL_FILES } from '../../../src/emulator/modules/files/files.schemas.ts'
import { MAX_TOTAL_CONTENT_BYTES, MAX_TOTAL_CONTENTS } from '../../../src/emulator/modules/generations/generations.schemas.ts'
import { MAX_TOTAL_DESTINATIONS } from '../../../src/emulator/modules/observability/observability.service.ts'
import { MAX_TOTAL_MAPPINGS } from '../../../src/emulator/modules/organization/organization.schemas.ts'
import { MAX_TOTAL_PRESET_BYTES, MAX_TOTAL_VERSIONS } from '../../../src/emulator/modules/presets/presets.schemas.ts'
import { IMPORT_BODY_LIMIT, MAX_IMPORT_VALUE_BYTES } from '../../../src/emulator/modules/state/state-bounds.service.ts'
import { MAX_TOTAL_WORKSPACES } from '../../../src/emulator/modules/workspaces/workspaces.schemas.ts'

const KiB = 1024
const MiB = 1024 * KiB
/**
 * A row's columns besides its content (ids, names, times, its keys and quotes in the document): 1 KiB,
 * twice the largest measured (a file with a 255-character name 554 bytes, a key 544, a workspace 527).
 */
const ROW = KiB
/** A file's part besides its base64 (measured: 121 bytes). */
const PART_ROW = 256
/** JSON text stored in a column (generation content, preset configurations) is escaped once more in the document: its quotes and backslashes double. */
const ESCAPED_JSON = 2
/** A character JSON writes as \u00XX (a control character in a file name): six bytes. */
const ESCAPED_CHAR = 6
/** A usage row in the document (measured: 486 bytes). */
const USAGE_ROW = 500

describe('the import takes every document the export writes of a state within the stored bounds', () => {
  it('the largest, reckoned from the bounds, is under the import body limit', () => {
    const parts = Math.ceil(MAX_TOTAL_FILE_BYTES / FILE_PART_BYTES) + MAX_TOTAL_FILES
    const worst = {
      'file parts (base64)': Math.ceil(MAX_TOTAL_FILE_BYTES / 3) * 4 + parts * PART_ROW,
      files: MAX_TOTAL_FILES * (ROW + MAX_FILENAME_CHARS * (ESCAPED_CHAR - 1)),
      'generation content': MAX_TOTAL_CONTENT_BYTES * ESCAPED_JSON + MAX_TOTAL_CONTENTS * ROW,
      presets: MAX_TOTAL_PRESET_BYTES * ESCAPED_JSON + MAX_TOTAL_VERSIONS * ROW,
      // A credential keeps a masked label of its key, not the key (measured: 411 bytes with a key of 16,000 characters).
      'BYOK credentials': MAX_TOTAL_CREDENTIALS * ROW,
      'destinations, workspaces, SCIM mappings': (MAX_TOTAL_DESTINATIONS + MAX_TOTAL_WORKSPACES + MAX_TOTAL_MAPPINGS) * ROW,
      // Accounts, keys, guardrails, catalog, video tasks, deliveries and the rest: small, and most bounded by the above.
      'the other tables': 64 * MiB,
    }
    const total = Object.values(worst).reduce((sum, bytes) => sum + bytes, 0)
    const room = IMPORT_BODY_LIMIT - total
    console.log(
      `the largest document of a state within the stored bounds: ${(total / MiB).toFixed(0)} MiB of the import's ${IMPORT_BODY_LIMIT / MiB} MiB ` +
        `(${Object.entries(worst)
          .map(([what, bytes]) => `${what} ${(bytes / MiB).toFixed(0)}`)
          .join(', ')}); room for ${Math.floor(room / USAGE_ROW).toLocaleString('en-US')} usage rows besides`,
    )
    expect(total).toBeLessThan(IMPORT_BODY_LIMIT)
    // Room for a suite's usage besides: half a million billed requests, at the very worst.
    expect(room / USAGE_ROW).toBeGreaterThan(500_000)
  })

  it('one value of a document may be larger than any row the export writes', () => {
    // The largest rows: a file's part, a generation's content (a million characters each way, three bytes each at most), a catalog of 32 MB.
    const largest = Math.max((FILE_PART_BYTES / 3) * 4, 2 * 1024 * 1024 * 3 * ESCAPED_JSON, 32 * MiB * ESCAPED_JSON)
    expect(largest + ROW).toBeLessThan(MAX_IMPORT_VALUE_BYTES)
  })
})
