// The admin API's side of the authorization page: what a person's Authorize click does, for tests and
// scripts that have no browser. The testing helper's `authorize()` calls it.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { toIso } from '../../core/clock.ts'
import { data } from '../../http/schemas.ts'
import type { EmulatorContext } from '../module.ts'
import { AdminAuthorization, AdminAuthorizeBody } from './oauth.schemas.ts'
import { checkCallbackUrl, checkChallenge, issueCode, redirectTarget } from './oauth.service.ts'
import { codeAccountNotFound } from './oauth.errors.ts'

export const oauthAdminRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  app.post(
    '/oauth/authorize',
    {
      config: { operation: 'admin.oauth.authorize' },
      schema: {
        summary: "Authorize as the authorization page's Authorize button does: a code for the account, and where the browser would go",
        body: AdminAuthorizeBody,
        response: data(AdminAuthorization, 201),
      },
    },
    async (request, reply) => {
      const body = request.body
      const account = body.account_id === undefined ? ctx.services.accounts.list()[0] : ctx.services.accounts.get(body.account_id)
      if (!account) throw codeAccountNotFound(body.account_id)
      const callback = checkCallbackUrl(body.callback_url, 'callback_url')
      const userId = ctx.services.accounts.members(account.id)[0]?.id ?? null
      const row = issueCode(ctx, {
        account,
        userId,
        callback,
        challenge: checkChallenge(body.code_challenge, body.code_challenge_method),
        keyName: callback.host,
        limitUsd: body.limit ?? null,
        limitReset: null,
        keyExpiresAt: null,
        workspaceId: account.workspace_id,
      })
      const authorization: AdminAuthorization = {
        code: row.id,
        redirect_url: redirectTarget(callback, { code: row.id }),
        account_id: account.id,
        user_id: userId,
        expires_at: toIso(row.expires_at),
      }
      return reply.code(201).send({ data: authorization })
    },
  )
}
