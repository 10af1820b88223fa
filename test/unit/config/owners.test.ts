// Each area declares its part of the configuration beside its code (`<area>.config.ts`, its module's
// `config`): the one settings table holds the kernel's settings and those, each setting declared once.
import { describe, expect, it } from 'vitest'
import { defaultConfig } from '../../../src/emulator/config.ts'
import { MODULES } from '../../../src/emulator/modules/index.ts'

/** The kernel's own settings: where to listen, what to start from, the listeners' bounds, the media pool. */
const KERNEL = [
  'host',
  'port',
  'euPort',
  'db',
  'seed',
  'fixtures',
  'clock',
  'clockStart',
  'logLevel',
  'demo',
  'reset',
  'ui',
  'wrongKeyKindStatus',
  'allowedHosts',
  'adminToken',
  'corsOrigins',
  'requestTimeoutMs',
  'keepAliveTimeoutMs',
  'maxConnections',
  'mediaThreads',
]

describe('who declares each setting', () => {
  const table = Object.keys(defaultConfig())
  const declared = MODULES.flatMap((module) => (module.config ?? []).map((setting) => ({ owner: module.name, key: setting.key })))

  it("holds every module's settings, each declared by one module only", () => {
    for (const { owner, key } of declared) expect(table, `${owner}: ${key}`).toContain(key)
    expect(new Set(declared.map((d) => d.key)).size).toBe(declared.length)
  })

  it("holds nothing else than the kernel's own settings", () => {
    const byModules = new Set(declared.map((d) => d.key))
    expect(table.filter((key) => !byModules.has(key))).toEqual(KERNEL)
  })

  it('gives the areas most of the settings (over thirty, of ten areas)', () => {
    expect(declared.length).toBe(32)
    expect(new Set(declared.map((d) => d.owner))).toEqual(
      new Set(['ledger', 'credits', 'embeddings', 'catalog', 'text', 'recordings', 'video-router', 'ratelimit', 'callbacks', 'journal']),
    )
  })
})
