// One emulator per database file. Two on one file would each run their own clock and deliver the
// same callbacks twice, without a word: the second is refused, naming the file and the process that
// holds it. The lock is a file beside the database holding the owner's pid; one whose process is gone
// (a crash, a kill -9) is stale and taken over. `:memory:` is never locked.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'

export class DatabaseLockedError extends Error {
  override name = 'DatabaseLockedError'
}

interface LockOwner {
  pid: number
  started: string
}

/** Whether a process with this pid is running (EPERM: it is, but not ours to signal). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function readOwner(lockPath: string): LockOwner | null {
  try {
    const owner = JSON.parse(readFileSync(lockPath, 'utf8')) as Partial<LockOwner>
    return typeof owner.pid === 'number' ? { pid: owner.pid, started: owner.started ?? 'an unknown time' } : null
  } catch {
    return null
  }
}

/** Locks `dbPath` for this process; returns the release. Throws DatabaseLockedError when another emulator holds it. */
export function lockDatabase(dbPath: string, startedAt: string): () => void {
  if (dbPath === ':memory:') return () => undefined
  const lockPath = `${dbPath}.lock`
  for (let tries = 0; tries < 3; tries++) {
    let fd: number
    try {
      fd = openSync(lockPath, 'wx')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const owner = readOwner(lockPath)
      if (owner && running(owner.pid)) {
        const who = owner.pid === process.pid ? 'another emulator in this process' : `process ${owner.pid}`
        throw new DatabaseLockedError(
          `database ${dbPath} is in use by ${who} (started ${owner.started}); stop it, or give this one another --db (or --db :memory:)`,
        )
      }
      // Stale (its process is gone), or half-written by a start that died: taken over.
      try {
        unlinkSync(lockPath)
      } catch {
        // another start took it over first: try again
      }
      continue
    }
    writeSync(fd, JSON.stringify({ pid: process.pid, started: startedAt }))
    closeSync(fd)
    let released = false
    return () => {
      if (released) return
      released = true
      if (readOwner(lockPath)?.pid === process.pid) unlinkSync(lockPath)
    }
  }
  throw new DatabaseLockedError(`database ${dbPath}: could not take its lock file ${lockPath}`)
}
