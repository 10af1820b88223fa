// OAuth PKCE: authorization codes (from the API, the authorization page or the admin API) exchanged
// once for a standard key of the account that authorized them.
import { uuidIds } from '../../core/lifecycle.ts'
import type { Limit } from '../../core/limits.ts'
import { defineModule } from '../module.ts'
import { MAX_CALLBACK_CHARS, MAX_KEY_NAME, MAX_PENDING_CODES } from './oauth.service.ts'
import { oauthAdminRoutes } from './oauth.admin.ts'
import { oauthPages, oauthShortcuts } from './oauth.page.ts'
import { createOAuthRepo, oauthState, type OAuthRepo } from './oauth.repo.ts'
import { oauthRoutes } from './oauth.routes.ts'

declare module '../module.ts' {
  interface Services {
    oauth: OAuthRepo
  }
}

/** What this area bounds (docs/limits.md). */
const LIMITS: readonly Limit[] = [
  { what: 'Codes one account has waiting for their exchange', value: MAX_PENDING_CODES, unit: 'items', beyond: '409 until one is exchanged or expires' },
  { what: 'Characters of a callback URL', value: MAX_CALLBACK_CHARS, unit: 'characters', beyond: '400 naming `callback_url`' },
  { what: "Characters of a key's name made by the flow", value: MAX_KEY_NAME, unit: 'characters', beyond: '400 naming `key_label`' },
]

export const oauthModule = defineModule({
  name: 'oauth',
  limits: LIMITS,
  needs: ['accounts', 'keys'],
  create: (ctx) => createOAuthRepo(ctx.db),
  state: (ctx) => [{ ...oauthState(ctx.db), mints: [uuidIds('oauth-code', 'oauth_codes')] }],
  gateway: oauthRoutes,
  admin: oauthAdminRoutes,
  pages: oauthPages,
  shortcuts: oauthShortcuts,
})
