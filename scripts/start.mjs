// npm start: runs the bundled CLI (out/cli/cli.js), building it first when it is missing or older
// than the sources, so a fresh checkout and an edited one both start from what is on disk.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const bundle = join(root, 'out', 'cli', 'cli.js')

function newestSource(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs)
  }
  return newest
}

const stale = !existsSync(bundle) || statSync(bundle).mtimeMs < Math.max(newestSource(join(root, 'src', 'emulator')), statSync(join(root, 'package.json')).mtimeMs)
if (stale) {
  execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'vite.cli.config.ts', '--logLevel', 'error'], { cwd: root, stdio: 'inherit' })
}
await import(pathToFileURL(bundle).href)
