// A heartbeat beside an attack: GET /_emulator/api/health (or, given another account's key, that
// account's GET /api/v1/key: a light request of someone else), one after the other, for as long as
// the attack runs. The slowest answer says whether the attack stalled the emulator for everyone else.
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
  options: { key?: string } = {},
): Promise<{ result: T; heartbeat: Heartbeat }> {
  const heartbeat: Heartbeat = { beats: 0, slowestMs: 0, failures: [] }
  const beat = options.key === undefined ? `${baseUrl}/_emulator/api/health` : `${baseUrl}/api/v1/key`
  const beatHeaders = options.key === undefined ? headers : { ...headers, authorization: `Bearer ${options.key}` }
  let running = true
  const beating = (async () => {
    // At least one beat, however fast the attack.
    do {
      const started = performance.now()
      const res = await fetch(beat, { headers: beatHeaders })
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

/** A second account's standard key, made through the admin API: whose heartbeat an attack must not stall. */
export async function anotherAccountKey(baseUrl: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${baseUrl}/_emulator/api/accounts`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Heartbeat', credits_usd: 10 }),
  })
  if (res.status !== 201) throw new Error(`could not make the heartbeat's account: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { data: { standard_key: string } }).data.standard_key
}
