// npm start: runs the bundled CLI in this process, building it and the inspector UI first when they
// are missing or older than their sources, so `npm install && npm start` serves a working UI.
//
// Signals. npm runs a script through `sh -c`, and forwards SIGINT and SIGTERM to that child only. A
// shell that waits for a command swallows them (dash catches SIGINT and waits on), so a SIGINT to npm
// alone (a CI cancel, a process manager) left us serving. The start script therefore reads
// `exec node scripts/start.mjs`: the shell becomes this process, and npm's signals reach the CLI
// (Windows' cmd.exe has no `exec`: it finds exec.cmd in the package folder, which runs the rest). A
// Ctrl+C then reaches us twice (from the terminal, to the whole process group, and forwarded by npm):
// the CLI counts a repeat of the same signal that close together as one (see cli.ts).
//
// Whatever npm does not forward (SIGHUP, a SIGKILL to npm) ends npm and leaves this process serving.
// So it watches its parent, and stops as on a SIGTERM (the CLI's graceful stop) once the parent is
// gone; unless a signal has already started the stop, when a SIGTERM from here would be a second
// signal, "stop now".
import { pathToFileURL } from 'node:url'
import { ensureCliBundle, ensureUiBuild } from './cli-bundle.mjs'

const PARENT_CHECK_MS = 250
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP']

const parent = process.ppid
const watch = setInterval(() => {
  if (process.ppid === parent) return
  stopWatching()
  process.kill(process.pid, 'SIGTERM')
}, PARENT_CHECK_MS)
watch.unref()

/** Once a stop signal has arrived, the CLI is stopping (or this process is ending): no more watching. */
function stopWatching(signal) {
  clearInterval(watch)
  for (const name of STOP_SIGNALS) process.off(name, stopWatching)
  // Before the CLI listens (building, starting up) a signal keeps its default action: it ends the
  // process. A listener here would swallow it, so with no other listener it is raised again.
  if (signal && process.listenerCount(signal) === 0) process.kill(process.pid, signal)
}
for (const name of STOP_SIGNALS) process.on(name, stopWatching)

ensureUiBuild({ progress: true })
await import(pathToFileURL(ensureCliBundle({ progress: true })).href)
