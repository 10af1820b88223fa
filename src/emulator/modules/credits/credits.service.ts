// Crypto charges: creation with deterministic call data, and the two ways a pending charge ends:
// confirmed (the account is credited, once) or expired. Auto-confirm and expiry run off the clock.
import { toIso, type DueSource } from '../../core/clock.ts'
import { nanosToUsd, percentOf, usdcUnitsToNanos } from '../../core/money.ts'
import { deriveHex } from '../../core/rng.ts'
import { recordEffect } from '../../journal/journal.ts'
import type { EmulatorContext } from '../module.ts'
import type { Charge } from './credits.schemas.ts'
import type { ChargeRow } from './credits.repo.ts'
import type { ChainId, Web3Data } from './credits.schemas.ts'

// Values as seen in real captures of the Coinbase transfers contract.
const PREFIX = '0x4b3220496e666f726d6174696f6e616c204d6573736167653a20333220'
const OPERATOR = '0x8fccc78dae0a8f93b0fe6799de888d4c57e273db'
const USDC: Record<ChainId, string> = {
  1: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  137: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
  8453: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
}
const TRANSFERS_CONTRACT: Record<ChainId, string> = {
  1: '0x7915f087685fffD71608E5d118f3B70c27D9eF4e',
  137: '0x7f52269092F2a5EF06C36C91e46F9196deb90336',
  8453: '0x9Bb4D44e6963260A1850926E8f6bEB8d5803836F',
}

export interface NewCharge {
  account_id: string
  key_hash: string | null
  /** Whole USDC base units (1e-6 USD), > 0. */
  units: number
  chain_id: ChainId
  sender: string
}

/** Creates a pending charge (and its sequence number) in one transaction. */
export function createCharge(ctx: EmulatorContext, input: NewCharge): ChargeRow {
  const row = ctx.db
    .transaction((): ChargeRow => {
      const label = ctx.ids.next('charge')
      const hex = (what: string, chars: number) => `0x${deriveHex(ctx.config.seed, `charge:${label}:${what}`, chars)}`
      const now = ctx.clock.now()
      const expiresAt = now + ctx.config.chargeExpiryMs
      const fee = percentOf(input.units, 1) // the 1% processing fee, inside the amount
      const web3: Web3Data = {
        transfer_intent: {
          call_data: {
            deadline: toIso(expiresAt),
            fee_amount: String(fee),
            id: hex('intent', 32),
            operator: OPERATOR,
            prefix: PREFIX,
            // One deposit address per account, like a merchant's per-customer address.
            recipient: `0x${deriveHex(ctx.config.seed, `charge:${input.account_id}:recipient`, 40)}`,
            recipient_amount: String(input.units - fee),
            recipient_currency: USDC[input.chain_id],
            refund_destination: input.sender,
            signature: hex('signature', 130),
          },
          metadata: { chain_id: input.chain_id, contract_address: TRANSFERS_CONTRACT[input.chain_id], sender: input.sender },
        },
      }
      const row: ChargeRow = {
        id: ctx.ids.uuid(label),
        account_id: input.account_id,
        key_hash: input.key_hash,
        amount_nanos: usdcUnitsToNanos(input.units),
        chain_id: input.chain_id,
        sender: input.sender,
        status: 'pending',
        web3_data: JSON.stringify(web3),
        created_at: now,
        expires_at: expiresAt,
        confirm_at: ctx.config.chargeAutoConfirmMs === null ? null : now + ctx.config.chargeAutoConfirmMs,
        confirmed_at: null,
      }
      ctx.services.credits.insert(row)
      return row
    })
    .immediate()
  recordEffect('charge', row.id)
  ctx.events.emit('charge.created', { id: row.id, account_id: row.account_id })
  return row
}

/** The charge as the API returns it. */
export function chargeView(row: ChargeRow) {
  return {
    id: row.id,
    created_at: toIso(row.created_at),
    expires_at: toIso(row.expires_at),
    web3_data: JSON.parse(row.web3_data) as Web3Data,
  }
}

/** The admin view: the API charge plus what the emulator knows about it. */
export function adminChargeView(row: ChargeRow): Charge {
  return {
    ...chargeView(row),
    account_id: row.account_id,
    amount_usd: nanosToUsd(row.amount_nanos),
    chain_id: row.chain_id,
    sender: row.sender,
    status: row.status,
    confirmed_at: row.confirmed_at === null ? null : toIso(row.confirmed_at),
  }
}

export interface ConfirmResult {
  /** The charge after the attempt: 'confirmed', or 'expired' when it was too late. */
  charge: ChargeRow
  /** True only for the confirmation that added the credits. */
  credited: boolean
}

// Confirms as of `at`: the auto-confirm passes its own due time, so a clock jump past both a charge's
// confirm_at and its expires_at still settles them in the order they fell due.
function confirmAt(ctx: EmulatorContext, id: string, at: number): ConfirmResult | undefined {
  const repo = ctx.services.credits
  const result = ctx.db
    .transaction((): { outcome: 'confirmed' | 'expired' | 'unchanged'; charge: ChargeRow } | undefined => {
      const charge = repo.get(id)
      if (!charge) return undefined
      if (charge.status !== 'pending') return { outcome: 'unchanged', charge }
      if (charge.expires_at <= at) {
        repo.setStatus(id, 'expired')
        return { outcome: 'expired', charge: repo.get(id)! }
      }
      repo.setStatus(id, 'confirmed', at)
      ctx.services.accounts.addCredits(charge.account_id, charge.amount_nanos)
      return { outcome: 'confirmed', charge: repo.get(id)! }
    })
    .immediate()
  if (!result) return undefined
  const event = { id, account_id: result.charge.account_id }
  if (result.outcome === 'confirmed') ctx.events.emit('charge.confirmed', event)
  if (result.outcome === 'expired') ctx.events.emit('charge.expired', event)
  return { charge: result.charge, credited: result.outcome === 'confirmed' }
}

/** Confirms a pending charge and credits its account; undefined when the id is unknown. */
export function confirmCharge(ctx: EmulatorContext, id: string): ConfirmResult | undefined {
  return confirmAt(ctx, id, ctx.clock.now())
}

/** Expires a pending charge (a confirmed one stays confirmed); the charge after, or undefined when unknown. */
export function expireCharge(ctx: EmulatorContext, id: string): ChargeRow | undefined {
  const repo = ctx.services.credits
  const changed = repo.setStatus(id, 'expired')
  const charge = repo.get(id)
  if (changed && charge) ctx.events.emit('charge.expired', { id, account_id: charge.account_id })
  return charge
}

/** Auto-confirms and expires pending charges as the virtual clock reaches them. */
export function createChargeDueSource(ctx: EmulatorContext): DueSource {
  return {
    name: 'charges',
    nextDue: () => ctx.services.credits.nextDue(),
    runDue(now) {
      for (const charge of ctx.services.credits.pendingDue(now)) {
        const autoConfirm = charge.confirm_at !== null && charge.confirm_at < charge.expires_at
        if (autoConfirm) confirmAt(ctx, charge.id, charge.confirm_at!)
        else expireCharge(ctx, charge.id)
      }
    },
  }
}
