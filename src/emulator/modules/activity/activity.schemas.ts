// GET /api/v1/activity: its query and its answer, usage grouped by UTC date and endpoint.
import { Type, type Static } from 'typebox'
import { ErrorEnvelope } from '../../http/schemas.ts'

export const ActivityQuery = Type.Object({
  date: Type.Optional(Type.String({ description: 'One of the last 30 completed UTC days, as YYYY-MM-DD' })),
  api_key_hash: Type.Optional(Type.String({ description: "Only this key's usage" })),
  user_id: Type.Optional(Type.String({ description: "Only this member's usage (`user_...`)" })),
})

const Usd = (description: string) => Type.Number({ description })

export const ActivityItem = Type.Object({
  date: Type.String({ description: 'The UTC day, YYYY-MM-DD' }),
  model: Type.String({ description: 'The model id the requests named' }),
  model_permaslug: Type.String({ description: "The model's canonical slug (its id when the catalog no longer has it)" }),
  endpoint_id: Type.String(),
  provider_name: Type.String(),
  usage: Usd('USD spent from credits'),
  byok_usage_inference: Usd('USD of bring-your-own-key inference'),
  requests: Type.Integer(),
  prompt_tokens: Type.Integer(),
  completion_tokens: Type.Integer(),
  reasoning_tokens: Type.Integer(),
})
export type ActivityItem = Static<typeof ActivityItem>

export const ActivityResponse = {
  200: Type.Object({ data: Type.Array(ActivityItem) }, { description: 'One row per day, model and endpoint, newest day first' }),
  '4xx': ErrorEnvelope,
}
