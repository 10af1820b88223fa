// Each test owns a fresh emulator: in memory, manual clock, seed 1. `inject` goes through the whole
// Fastify pipeline without a socket; `listen` gives a real URL for the official clients.
import type { InjectOptions } from 'fastify'
import { onTestFinished } from 'vitest'
import { usdToNanos } from '../../src/emulator/core/money.ts'
import { createEmulator, startEmulator, type Emulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.ts'

export const TEST_START = '2026-03-04T10:00:00.000Z' // a Wednesday

const defaults: EmulatorOptions = { db: ':memory:', clock: 'manual', clockStart: TEST_START, seed: 1, logLevel: 'silent' }

export interface TestEmulator extends Emulator {
  request(options: InjectOptions): Promise<{ status: number; body: any; headers: Record<string, unknown> }>
  get(url: string, key?: string): Promise<{ status: number; body: any; headers: Record<string, unknown> }>
  send(
    method: 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
    key?: string,
  ): Promise<{ status: number; body: any; headers: Record<string, unknown> }>
}

function withHelpers<T extends Emulator>(emu: T): T & TestEmulator {
  const request = async (options: InjectOptions) => {
    const res = await emu.app.inject(options)
    let body: unknown = res.body
    try {
      body = res.json()
    } catch {
      // not JSON: keep the text
    }
    return { status: res.statusCode, body: body as any, headers: res.headers as Record<string, unknown> }
  }
  const auth = (key?: string) => (key ? { authorization: `Bearer ${key}` } : {})
  return Object.assign(emu, {
    request,
    get: (url: string, key?: string) => request({ method: 'GET', url, headers: auth(key) }),
    send: (method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: unknown, key?: string) =>
      request({
        method,
        url,
        headers: { ...auth(key), ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
      }),
  })
}

export async function testEmulator(options: EmulatorOptions = {}): Promise<Emulator & TestEmulator> {
  const emu = await createEmulator({ ...defaults, ...options })
  onTestFinished(() => emu.close())
  return withHelpers(emu)
}

export async function listeningEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator & TestEmulator> {
  const emu = await startEmulator({ ...defaults, host: '127.0.0.1', port: 0, ...options })
  onTestFinished(() => emu.close())
  return withHelpers(emu)
}

/** Records a billable action directly in the ledger's usage table, as the billing paths will. */
export function recordUsage(emu: Emulator, keyHash: string, costUsd: number, at: string | number, byok = false, model = 'test/model'): void {
  const key = emu.ctx.services.keys.byHash(keyHash)!
  emu.ctx.services.usage.insert({
    account_id: key.account_id,
    key_hash: keyHash,
    member_id: key.creator_user_id,
    operation: 'embeddings.create',
    model,
    provider: 'Test',
    endpoint_id: 'endpoint-test',
    prompt_tokens: 10,
    completion_tokens: 0,
    reasoning_tokens: 0,
    cost_nanos: usdToNanos(costUsd),
    byok: byok ? 1 : 0,
    created_at: typeof at === 'number' ? at : Date.parse(at),
    workspace_id: key.workspace_id ?? emu.ctx.services.accounts.get(key.account_id)!.workspace_id,
  })
}
