// The admin API and UI are guarded: a Host check against DNS rebinding, a token when the emulator is
// reachable beyond loopback; no CORS unless configured; and secrets stay out of callbacks.
import { describe, expect, it } from 'vitest'
import { createEmulator } from '../../src/emulator/index.ts'
import { testEmulator } from '../helpers/emulator.ts'

describe('the Host check on the admin API and UI', () => {
  it.each(['localhost:8710', '127.0.0.1:9000', '[::1]:8710', '127.0.0.2'])('accepts %s', async (host) => {
    const emu = await testEmulator()
    const res = await emu.request({ method: 'GET', url: '/_emulator/api/health', headers: { host } })
    expect(res.status).toBe(200)
  })

  it('refuses a rebound name with a 403 in the envelope, on the API and the UI, but not the gateway', async () => {
    const emu = await testEmulator()
    for (const url of ['/_emulator/api/health', '/_emulator/api/accounts', '/_emulator/']) {
      const res = await emu.request({ method: 'GET', url, headers: { host: 'attacker.example:8710' } })
      expect(res.status, url).toBe(403)
      expect(res.body).toEqual({ error: { code: 403, message: 'Host attacker.example:8710 is not allowed for the admin API and UI; add it with --allowed-hosts if it is yours' } })
    }
    // The gateway is guarded by its keys, not by the Host.
    expect((await emu.request({ method: 'GET', url: '/api/v1/models/count', headers: { host: 'attacker.example' } })).status).toBe(200)
  })

  it('accepts names given with allowedHosts', async () => {
    const emu = await testEmulator({ allowedHosts: ['emulator.test'] })
    expect((await emu.request({ method: 'GET', url: '/_emulator/api/health', headers: { host: 'emulator.test:8710' } })).status).toBe(200)
  })
})

describe('the admin token beyond loopback', () => {
  // Built without listening: tests only ever bind 127.0.0.1.
  const wide = () => createEmulator({ host: '0.0.0.0', clock: 'manual' })

  it('is required, derived from the seed when none is given, and accepted three ways', async () => {
    const emu = await wide()
    try {
      const token = emu.config.adminToken!
      expect(token).toMatch(/^gwe-admin-[0-9a-f]{32}$/)
      const same = await createEmulator({ host: '0.0.0.0' })
      expect(same.config.adminToken).toBe(token)
      await same.close()
      const ask = (headers: Record<string, string>, url = '/_emulator/api/health') => emu.app.inject({ method: 'GET', url, headers: { host: 'localhost', ...headers } })
      const refused = await ask({})
      expect(refused.statusCode).toBe(401)
      expect(refused.json().error.message).toMatch(/^The admin API and UI need the admin token/)
      expect((await ask({ authorization: 'Bearer wrong' })).statusCode).toBe(401)
      expect((await ask({ authorization: `Bearer ${token}` })).statusCode).toBe(200)
      expect((await ask({ 'x-emulator-admin-token': token })).statusCode).toBe(200)
      // A browser opens the UI once with ?token= and keeps it in an HttpOnly cookie.
      const page = await ask({}, `/_emulator/?token=${token}`)
      expect(page.statusCode).toBe(200)
      expect(page.headers['set-cookie']).toBe(`gwe_admin=${token}; Path=/_emulator; HttpOnly; SameSite=Strict`)
      expect((await ask({ cookie: `other=1; gwe_admin=${token}` })).statusCode).toBe(200)
      // The gateway keeps using API keys.
      expect((await emu.app.inject({ method: 'GET', url: '/api/v1/keys', headers: { authorization: `Bearer ${emu.keys.management}` } })).statusCode).toBe(200)
    } finally {
      await emu.close()
    }
  })

  it('is not needed on loopback, unless one is configured', async () => {
    const emu = await testEmulator()
    expect(emu.config.adminToken).toBeNull()
    const guarded = await testEmulator({ adminToken: 'let-me-in' })
    expect((await guarded.get('/_emulator/api/health')).status).toBe(401)
    expect((await guarded.request({ method: 'GET', url: '/_emulator/api/health', headers: { 'x-emulator-admin-token': 'let-me-in' } })).status).toBe(200)
  })
})

describe('other guards', () => {
  it('sends no CORS headers: other origins cannot read the APIs from a browser', async () => {
    const emu = await testEmulator()
    for (const url of ['/api/v1/models/count', '/_emulator/api/health']) {
      const res = await emu.request({ method: 'GET', url, headers: { origin: 'https://elsewhere.example' } })
      expect(res.headers['access-control-allow-origin'], url).toBeUndefined()
    }
  })

  it('binds 127.0.0.1 by default', async () => {
    const emu = await testEmulator()
    expect(emu.config.host).toBe('127.0.0.1')
  })
})
