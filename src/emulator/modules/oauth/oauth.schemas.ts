import { Type, type Static } from 'typebox'
import { ErrorEnvelope, Iso, Nullable, ResetIntervalSchema, Shape, StringEnum } from '../../http/schemas.ts'
import { CHALLENGE_METHODS, CODE_LIFETIME, MAX_CALLBACK_CHARS, MAX_KEY_NAME } from './oauth.service.ts'

const ChallengeMethod = StringEnum(CHALLENGE_METHODS)

/** POST /auth/keys/code: the real document's fields (the callback URL's rules are checked by the service, to name them). */
export const CreateCodeBody = Type.Object({
  callback_url: Type.String({
    minLength: 1,
    maxLength: MAX_CALLBACK_CHARS,
    description: 'Where the app receives the code: an https URL, or http on localhost / 127.0.0.1 (any port)',
  }),
  code_challenge: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  code_challenge_method: Type.Optional(ChallengeMethod),
  expires_at: Type.Optional(Nullable(Type.String({ format: 'date-time', maxLength: 40, description: 'When the key the code gives expires (UTC)' }))),
  key_label: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_KEY_NAME, description: "The new key's name; the app's title or host when not given" })),
  limit: Type.Optional(Type.Number({ minimum: 0, maximum: 1e9, description: "The new key's spending limit in USD" })),
  usage_limit_type: Type.Optional(ResetIntervalSchema),
  workspace_id: Type.Optional(Type.String({ format: 'uuid' })),
  spawn_agent: Type.Optional(Type.String({ maxLength: 200, description: 'Telemetry: accepted and ignored' })),
  spawn_cloud: Type.Optional(Type.String({ maxLength: 200, description: 'Telemetry: accepted and ignored' })),
})
export type CreateCodeBody = Static<typeof CreateCodeBody>

export const CodeCreatedResponse = {
  200: Type.Object({
    data: Type.Object({
      id: Type.String({ description: `The authorization code, to exchange at POST /auth/keys within ${CODE_LIFETIME} of the virtual clock` }),
      app_id: Type.Integer({ description: "A stable number for the callback URL's origin" }),
      created_at: Type.String({ format: 'date-time' }),
    }),
  }),
  '4xx': ErrorEnvelope,
}

export const ExchangeBody = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 200 }),
  code_verifier: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  code_challenge_method: Type.Optional(Nullable(ChallengeMethod)),
})
export type ExchangeBody = Static<typeof ExchangeBody>

export const ExchangeResponse = {
  200: Type.Object({
    key: Type.String({ description: 'A new standard key of the account that authorized the code' }),
    user_id: Nullable(Type.String({ description: 'The member who authorized it' })),
  }),
  '4xx': ErrorEnvelope,
}

// ---- The admin API: complete the authorization page without a browser ----------------------------

export const AdminAuthorizeBody = Type.Object({
  callback_url: Type.String({ minLength: 1, maxLength: MAX_CALLBACK_CHARS }),
  code_challenge: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  code_challenge_method: Type.Optional(ChallengeMethod),
  limit: Type.Optional(Type.Number({ minimum: 0, maximum: 1e9 })),
  account_id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'The account that authorizes; the default (first) account when not given' }),
  ),
})
export type AdminAuthorizeBody = Static<typeof AdminAuthorizeBody>

export const AdminAuthorization = Shape({
  code: Type.String(),
  redirect_url: Type.String({ description: 'The callback URL with ?code=, where the page would have sent the browser' }),
  account_id: Type.String(),
  user_id: Nullable(Type.String()),
  expires_at: Iso('When the code can no longer be exchanged'),
})
export type AdminAuthorization = Static<typeof AdminAuthorization>
