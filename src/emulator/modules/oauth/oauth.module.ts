// OAuth PKCE: authorization codes (from the API, the authorization page or the admin API) exchanged
// once for a standard key of the account that authorized them.
import { uuidIds } from '../../core/lifecycle.ts'
import { defineModule } from '../module.ts'
import { oauthAdminRoutes } from './oauth.admin.ts'
import { oauthPages, oauthShortcuts } from './oauth.page.ts'
import { createOAuthRepo, oauthState, type OAuthRepo } from './oauth.repo.ts'
import { oauthRoutes } from './oauth.routes.ts'

declare module '../module.ts' {
  interface Services {
    oauth: OAuthRepo
  }
}

export const oauthModule = defineModule({
  name: 'oauth',
  needs: ['accounts', 'keys'],
  create: (ctx) => createOAuthRepo(ctx.db),
  state: (ctx) => [{ ...oauthState(ctx.db), mints: [uuidIds('oauth-code', 'oauth_codes')] }],
  gateway: oauthRoutes,
  admin: oauthAdminRoutes,
  pages: oauthPages,
  shortcuts: oauthShortcuts,
})
