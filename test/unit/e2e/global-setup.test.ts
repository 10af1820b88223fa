// When the e2e setup rebuilds the UI: only when the build is missing or older than a source or the
// build config, so an unchanged checkout pays nothing.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { rebuildReason } from '../../e2e/global-setup.ts'

const BUILT = new Date('2026-03-04T10:00:00Z')
const BEFORE = new Date('2026-03-04T09:00:00Z')
const AFTER = new Date('2026-03-04T11:00:00Z')

/** A checkout with renderer sources, the build config and (unless told) a build, all older than the build. */
function checkout(built = true): { root: string; touch(path: string, at: Date): void } {
  const root = mkdtempSync(join(tmpdir(), 'gwe-renderer-'))
  onTestFinished(() => rmSync(root, { recursive: true, force: true }))
  const touch = (path: string, at: Date) => {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), '')
    utimesSync(join(root, path), at, at)
  }
  for (const source of ['src/renderer/index.html', 'src/renderer/src/main.tsx', 'src/renderer/src/features/clock/Clock.tsx', 'electron.vite.config.ts'])
    touch(source, BEFORE)
  if (built) touch('out/renderer/index.html', BUILT)
  return { root, touch }
}

describe('rebuilding the UI for the e2e tests', () => {
  it('is not needed when the build is newer than every source', () => {
    expect(rebuildReason(checkout().root)).toBeNull()
  })

  it('is needed when there is no build', () => {
    expect(rebuildReason(checkout(false).root)).toBe('there is no build')
  })

  it.each(['src/renderer/src/features/clock/Clock.tsx', 'src/renderer/src/styles.css', 'src/renderer/index.html', 'electron.vite.config.ts'])(
    'is needed when %s is newer than the build',
    (path) => {
      const { root, touch } = checkout()
      touch(path, AFTER)
      expect(rebuildReason(root)).toBe(`${path} is newer than the build`)
    },
  )

  it('ignores files outside the renderer', () => {
    const { root, touch } = checkout()
    touch('src/emulator/cli.ts', AFTER)
    expect(rebuildReason(root)).toBeNull()
  })
})
