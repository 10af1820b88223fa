// What the callbacks admin API answers: deliveries with their attempts, and the outbox.
import { Type, type Static } from 'typebox'
import { Iso, Nullable, Shape, StringEnum } from '../../http/schemas.ts'

export const CallbackDeliveryStatus = StringEnum(['pending', 'delivered', 'failed'] as const)
export type CallbackDeliveryStatus = Static<typeof CallbackDeliveryStatus>
export const CallbackDelivery = Shape({
  id: Type.String(),
  task_id: Type.String(),
  account_id: Type.String(),
  url: Type.String(),
  state: Type.String({ description: 'The task state the body reports' }),
  status: CallbackDeliveryStatus,
  attempt_count: Type.Integer(),
  max_attempts: Type.Integer(),
  next_attempt_at: Nullable(Iso()),
  created_at: Iso(),
  delivered_at: Nullable(Iso()),
  body: Type.String({ description: 'The JSON body, exactly as sent' }),
  attempts: Type.Array(
    Shape({
      attempt: Type.Integer(),
      at: Iso(),
      wall_at: Iso(),
      status: Nullable(Type.Integer()),
      duration_ms: Type.Number(),
      error: Nullable(Type.String()),
    }),
  ),
})
export type CallbackDelivery = Static<typeof CallbackDelivery>

/** Callback attempts the outbox holds. */
export const Outbox = Shape({
  in_flight: Type.Integer({ description: 'Attempts under way' }),
  queued: Type.Integer({ description: 'Claimed deliveries waiting for a free slot of their destination' }),
  due: Type.Integer({ description: 'Pending deliveries due now that are not claimed yet' }),
})
