// The bundled CLI (out/cli/cli.js) and the inspector UI (out/renderer), each built first when it is
// missing or older than its sources, so a fresh checkout and an edited one both run what is on disk.
// Used by npm start, the benchmark and the crash test, which all start the CLI as users do.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
export const CLI_BUNDLE = join(root, 'out', 'cli', 'cli.js')

function newestSource(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs)
  }
  return newest
}

/**
 * Runs a build, saying so first when `progress` is on (npm start: the first start builds for several
 * seconds, which must not look like a hang), then how long it took.
 */
function build(what, args, progress) {
  const started = performance.now()
  if (progress) process.stderr.write(`Building ${what} (the first start, or sources changed since the last build)...\n`)
  execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' })
  if (progress) process.stderr.write(`  built ${what} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`)
}

/** Returns the bundle's path, building it when stale (saying so on stderr with `{ progress: true }`). */
export function ensureCliBundle({ progress = false } = {}) {
  const stale =
    !existsSync(CLI_BUNDLE) ||
    statSync(CLI_BUNDLE).mtimeMs < Math.max(newestSource(join(root, 'src', 'emulator')), statSync(join(root, 'package.json')).mtimeMs)
  if (stale)
    build('the emulator', [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'vite.cli.config.ts', '--logLevel', 'error'], progress)
  return CLI_BUNDLE
}

export const UI_BUILD = join(root, 'out', 'renderer', 'index.html')

/** Builds the inspector UI (with the desktop shell, which shares its build) when it is missing or stale. */
export function ensureUiBuild({ progress = false } = {}) {
  const stale =
    !existsSync(UI_BUILD) || statSync(UI_BUILD).mtimeMs < Math.max(newestSource(join(root, 'src', 'renderer')), statSync(join(root, 'package.json')).mtimeMs)
  if (stale)
    build(
      'the inspector UI',
      [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build', '--ignoreConfigWarning', '--logLevel', 'error'],
      progress,
    )
  return UI_BUILD
}
