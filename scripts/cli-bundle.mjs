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

/** Returns the bundle's path, building it when stale. */
export function ensureCliBundle() {
  const stale =
    !existsSync(CLI_BUNDLE) ||
    statSync(CLI_BUNDLE).mtimeMs < Math.max(newestSource(join(root, 'src', 'emulator')), statSync(join(root, 'package.json')).mtimeMs)
  if (stale) {
    execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'vite.cli.config.ts', '--logLevel', 'error'], {
      cwd: root,
      stdio: 'inherit',
    })
  }
  return CLI_BUNDLE
}

export const UI_BUILD = join(root, 'out', 'renderer', 'index.html')

/** Builds the inspector UI (with the desktop shell, which shares its build) when it is missing or stale. */
export function ensureUiBuild() {
  const stale =
    !existsSync(UI_BUILD) || statSync(UI_BUILD).mtimeMs < Math.max(newestSource(join(root, 'src', 'renderer')), statSync(join(root, 'package.json')).mtimeMs)
  if (stale) {
    execFileSync(
      process.execPath,
      [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build', '--ignoreConfigWarning', '--logLevel', 'error'],
      { cwd: root, stdio: 'inherit' },
    )
  }
  return UI_BUILD
}
