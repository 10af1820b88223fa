// The renaming codemod (scripts/rename-files.ts) rewrites each relative import that points at a moved
// file, and a moved file's own imports, whichever form the import takes; the rest stay as written.
import { describe, expect, it } from 'vitest'
import { rewriteImports } from '../../../scripts/rename-files.ts'

const renamed = new Map([
  ['/repo/src/modules/video/video.service.ts', '/repo/src/modules/video-router/video-router.service.ts'],
  ['/repo/src/modules/video/video.repo.ts', '/repo/src/modules/video-router/video-router.repo.ts'],
])

describe('rename-files', () => {
  it('points imports, exports, dynamic imports and worker URLs at the new paths', () => {
    const text = [
      "import { VideoService } from '../video/video.service.ts'",
      "export type { TaskRow } from '../video/video.repo.ts'",
      "const later = await import('../video/video.service.ts')",
      "import '../video/video.repo.ts'",
      "const worker = new URL('../video/video.service.ts', import.meta.url)",
      "import { bill } from '../ledger/ledger.service.ts'",
    ].join('\n')
    expect(rewriteImports(text, '/repo/src/modules/videos/videos.service.ts', '/repo/src/modules/videos/videos.service.ts', renamed)).toBe(
      [
        "import { VideoService } from '../video-router/video-router.service.ts'",
        "export type { TaskRow } from '../video-router/video-router.repo.ts'",
        "const later = await import('../video-router/video-router.service.ts')",
        "import '../video-router/video-router.repo.ts'",
        "const worker = new URL('../video-router/video-router.service.ts', import.meta.url)",
        "import { bill } from '../ledger/ledger.service.ts'",
      ].join('\n'),
    )
  })

  it('rewrites a moved file’s own imports from where it now is, and leaves a file already done alone', () => {
    const from = '/repo/src/modules/video/video.service.ts'
    const to = '/repo/src/modules/video-router/video-router.service.ts'
    const text = "import { x } from './video.repo.ts'\nimport { y } from '../ledger/ledger.service.ts'"
    const moved = rewriteImports(text, from, to, renamed)
    expect(moved).toBe("import { x } from './video-router.repo.ts'\nimport { y } from '../ledger/ledger.service.ts'")
    expect(rewriteImports(moved, to, to, renamed)).toBe(moved)
  })
})
