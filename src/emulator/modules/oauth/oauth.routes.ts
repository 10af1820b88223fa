// The gateway's half of the PKCE flow. POST /auth/keys/code: an app holding a management key asks for
// a code for its own account (the browser half, GET /auth, is oauth.page.ts). POST /auth/keys: the app
// exchanges a code with its verifier for a new key; it needs no key of its own (it has none yet), and
// one it sends anyway is ignored.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { caller } from '../../http/auth.ts'
import { requestOrigin } from '../../http/request-origin.ts'
import { toIso } from '../../core/clock.ts'
import { futureUtcTime, keyCreator, ownWorkspace } from '../keys/keys.service.ts'
import type { EmulatorContext } from '../module.ts'
import { CodeCreatedResponse, CreateCodeBody, ExchangeBody, ExchangeResponse } from './oauth.schemas.ts'
import { checkCallbackUrl, checkChallenge, exchangeCode, issueCode } from './oauth.service.ts'

export const oauthRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  app.post(
    '/auth/keys/code',
    {
      config: { operation: 'oauth.code.create', auth: 'management' },
      schema: { summary: 'Create an authorization code (PKCE)', tags: ['oauth'], body: CreateCodeBody, response: CodeCreatedResponse },
    },
    async (request) => {
      const { account, key } = caller(request)
      const body = request.body
      const callback = checkCallbackUrl(body.callback_url, 'callback_url')
      const challenge = checkChallenge(body.code_challenge, body.code_challenge_method)
      const row = issueCode(ctx, {
        account,
        userId: keyCreator(ctx, account, undefined, key.creator_user_id),
        callback,
        challenge,
        // The real key is named after the app; its title header names it here, else its host.
        keyName: body.key_label ?? requestOrigin(request).title ?? callback.host,
        limitUsd: body.limit ?? null,
        limitReset: body.usage_limit_type ?? null,
        keyExpiresAt: body.expires_at === undefined || body.expires_at === null ? null : futureUtcTime(ctx, 'expires_at', body.expires_at),
        workspaceId: ownWorkspace(ctx, account, body.workspace_id),
      })
      return { data: { id: row.id, app_id: row.app_id, created_at: toIso(row.created_at) } }
    },
  )

  app.post(
    '/auth/keys',
    {
      config: { operation: 'oauth.code.exchange' },
      schema: { summary: 'Exchange an authorization code for an API key (PKCE)', tags: ['oauth'], body: ExchangeBody, response: ExchangeResponse },
    },
    async (request) => exchangeCode(ctx, { code: request.body.code, verifier: request.body.code_verifier, method: request.body.code_challenge_method }),
  )
}
