// A heartbeat beside an attack: GET /_emulator/api/health, one after the other, for as long as the
// attack runs. The slowest answer says whether the attack stalled the emulator for everyone else.
export interface Heartbeat {
  /** Heartbeats answered while the attack ran. */
  beats: number
  /** The slowest of them, in ms. */
  slowestMs: number
  /** Statuses other than 200, if any. */
  failures: number[]
}

export async function withHeartbeat<T>(
  baseUrl: string,
  attack: () => Promise<T>,
  headers: Record<string, string> = {},
): Promise<{ result: T; heartbeat: Heartbeat }> {
  const heartbeat: Heartbeat = { beats: 0, slowestMs: 0, failures: [] }
  let running = true
  const beating = (async () => {
    // At least one beat, however fast the attack.
    do {
      const started = performance.now()
      const res = await fetch(`${baseUrl}/_emulator/api/health`, { headers })
      await res.arrayBuffer()
      heartbeat.slowestMs = Math.max(heartbeat.slowestMs, performance.now() - started)
      heartbeat.beats++
      if (res.status !== 200) heartbeat.failures.push(res.status)
    } while (running)
  })()
  try {
    const result = await attack()
    return { result, heartbeat }
  } finally {
    running = false
    await beating
  }
}
