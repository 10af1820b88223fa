import { Type, type Static } from 'typebox'
import { ErrorEnvelope, Iso, Nullable, Shape, StringEnum } from '../../http/schemas.ts'

/** Chains a charge can be paid on: Ethereum, Polygon, Base. */
export const CHAIN_IDS = [1, 137, 8453] as const
export type ChainId = (typeof CHAIN_IDS)[number]

// A plain integer enum (not a union of literals) so a bad value gives one message: "must be one of 1, 137, 8453".
const ChainIdSchema = Type.Unsafe<ChainId>({ type: 'integer', enum: [...CHAIN_IDS] })

// `sender` is only typed here: its format is checked in the handler, with a clearer message than a pattern gives.
export const CreateChargeBody = Type.Object({
  amount: Type.Number({ exclusiveMinimum: 0 }),
  sender: Type.String(),
  chain_id: ChainIdSchema,
})

export type CreateChargeBody = Static<typeof CreateChargeBody>

const CallData = Type.Object({
  deadline: Type.String(),
  fee_amount: Type.String(),
  id: Type.String(),
  operator: Type.String(),
  prefix: Type.String(),
  recipient: Type.String(),
  recipient_amount: Type.String(),
  recipient_currency: Type.String(),
  refund_destination: Type.String(),
  signature: Type.String(),
})

export const Web3Data = Type.Object({
  transfer_intent: Type.Object({
    call_data: CallData,
    metadata: Type.Object({ chain_id: Type.Integer(), contract_address: Type.String(), sender: Type.String() }),
  }),
})

export type Web3Data = Static<typeof Web3Data>

export const ChargeObject = Type.Object({
  id: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  expires_at: Type.String({ format: 'date-time', description: 'The charge must be paid before this time' }),
  web3_data: Type.Object(Web3Data.properties, { description: "What the sender's wallet signs: a USDC transfer intent to the charge's contract" }),
})

export const ChargeResponse = {
  200: Type.Object({ data: ChargeObject }, { description: 'A pending charge: the credits arrive once it is confirmed' }),
  '4xx': ErrorEnvelope,
}

export const CreditsResponse = {
  200: Type.Object(
    {
      data: Type.Object({
        total_credits: Type.Number({ description: 'USD of credits bought or granted' }),
        total_usage: Type.Number({ description: 'USD spent; the balance is total_credits - total_usage' }),
      }),
    },
    { description: "The account's credits" },
  ),
  '4xx': ErrorEnvelope,
}

/** With `--crypto-charges gone` both charge paths answer 410, as the real, deprecated endpoint. */
export const ChargesGoneResponse = { 410: ErrorEnvelope }

export const ChargeParams = Type.Object({ id: Type.String({ minLength: 1 }) })

export const ListChargesQuery = Type.Object({ account: Type.Optional(Type.String({ minLength: 1 })) })

// ---- Admin answers -------------------------------------------------------------------------------

export const ChargeStatus = StringEnum(['pending', 'confirmed', 'expired'] as const)
export type ChargeStatus = Static<typeof ChargeStatus>
export const Charge = Shape({
  ...ChargeObject.properties,
  account_id: Type.String(),
  amount_usd: Type.Number(),
  chain_id: Type.Integer(),
  sender: Type.String(),
  status: ChargeStatus,
  confirmed_at: Nullable(Iso()),
})
export type Charge = Static<typeof Charge>
