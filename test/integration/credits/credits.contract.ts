// The contract cases of credits and crypto charges. Collected by test/integration/contract/contract.test.ts, which
// checks each answer against the real document's operation or the vendor's documented shapes
// (contract/kit.ts says what this file exports).
import { get, send, authCases, type Case, type Real } from '../contract/kit.ts'

/** Where these operations' answers are checked: the real document's operation, the vendor's shape, or nowhere (our own). */
export const real: Record<string, Real> = {
  'credits.get': { gateway: ['get', '/credits'] },
  'credits.crypto': { gateway: ['post', '/credits/coinbase'] },
  'credits.coinbase': { gateway: ['post', '/credits/coinbase'] },
}

/** Answers that differ from the real documents on purpose, by `operation status` (a row of docs/fidelity.md each). */
export const deliberate: Record<string, string> = {
  'credits.crypto 200': 'the spec creates a crypto charge; the real endpoint is deprecated and answers 410 (the --crypto-charges gone setting)',
  'credits.coinbase 200': 'the same charge under the processor-named path',
  'credits.crypto 401': 'the spec lists 401 for a charge without a key; the deprecated real endpoint answers 410 to everyone',
  'credits.crypto 400': 'the spec validates the charge (amount, sender, chain_id); the deprecated real endpoint answers 410',
}

const CHARGE = { amount: 10, sender: '0x9a85CB3bfd494Ea3a8C9E50aA6a3c1a7E8BACE11', chain_id: 8453 }

export const cases: Case[] = [
  { operation: 'credits.get', name: 'the balance', status: 200, run: (emu) => get(emu, '/api/v1/credits', emu.keys.standard) },
  ...authCases('credits.get', (emu, key) => get(emu, '/api/v1/credits', key), 'any'),
  { operation: 'credits.crypto', name: 'a charge', status: 200, run: (emu) => send(emu, 'POST', '/api/v1/credits/crypto', CHARGE, emu.keys.standard) },
  {
    operation: 'credits.crypto',
    name: 'a bad chain_id',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/credits/crypto', { ...CHARGE, chain_id: 5 }, emu.keys.standard),
  },
  ...authCases('credits.crypto', (emu, key) => send(emu, 'POST', '/api/v1/credits/crypto', CHARGE, key), 'any'),
  { operation: 'credits.coinbase', name: 'a charge', status: 200, run: (emu) => send(emu, 'POST', '/api/v1/credits/coinbase', CHARGE, emu.keys.standard) },
  {
    operation: 'credits.crypto',
    name: 'as the real service today (--crypto-charges gone)',
    status: 410,
    options: { cryptoCharges: 'gone' },
    run: (emu) => send(emu, 'POST', '/api/v1/credits/crypto', CHARGE, emu.keys.standard),
  },
  {
    operation: 'credits.coinbase',
    name: 'as the real service today (--crypto-charges gone)',
    status: 410,
    options: { cryptoCharges: 'gone' },
    run: (emu) => send(emu, 'POST', '/api/v1/credits/coinbase', CHARGE),
  },
]
