// npm start: runs the bundled CLI in this process, building it and the inspector UI first when they
// are missing or older than their sources, so `npm install && npm start` serves a working UI.
//
// npm runs this through a shell, which does not pass signals on: a SIGTERM to npm ends npm and the
// shell and leaves this process serving. So it watches its parent, and stops as on a SIGTERM (the
// CLI's graceful stop) once the parent is gone. Ctrl+C reaches it directly.
import { pathToFileURL } from 'node:url'
import { ensureCliBundle, ensureUiBuild } from './cli-bundle.mjs'

const PARENT_CHECK_MS = 250

const parent = process.ppid
const watch = setInterval(() => {
  if (process.ppid === parent) return
  clearInterval(watch) // once: a second SIGTERM would mean "stop now"
  process.kill(process.pid, 'SIGTERM')
}, PARENT_CHECK_MS)
watch.unref()

ensureUiBuild()
await import(pathToFileURL(ensureCliBundle()).href)
