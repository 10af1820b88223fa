// The e2e project's global setup. The emulator serves the inspector UI from the renderer build
// (out/renderer), so a test run against an old build would test old code. The build is redone once,
// before any test file starts, when it is missing or older than anything it is made from; when nothing
// changed this costs a walk of the sources' modification times (a few milliseconds).
import { execFileSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

const ROOT = join(import.meta.dirname, '../..')

/** What the renderer build is made from: every file under src/renderer, and the config that builds it. */
function rendererInputs(root: string): string[] {
  const files = readdirSync(join(root, 'src', 'renderer'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
  return [...files, join(root, 'electron.vite.config.ts')]
}

/** Why the renderer build under `root` must be redone, or null when it is newer than all its inputs. */
export function rebuildReason(root: string): string | null {
  let built: number
  try {
    built = statSync(join(root, 'out', 'renderer', 'index.html')).mtimeMs
  } catch {
    return 'there is no build'
  }
  for (const file of rendererInputs(root)) {
    if (statSync(file).mtimeMs > built) return `${relative(root, file)} is newer than the build`
  }
  return null
}

export default function setup(): void {
  const reason = rebuildReason(ROOT)
  if (reason === null) return
  const electronVite = join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js')
  try {
    execFileSync(process.execPath, [electronVite, 'build', '--ignoreConfigWarning'], { cwd: ROOT, stdio: 'pipe' })
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer }
    throw new Error(`building the UI for the e2e tests (${reason}) failed:\n${String(stderr ?? '')}${String(stdout ?? '')}`)
  }
}
