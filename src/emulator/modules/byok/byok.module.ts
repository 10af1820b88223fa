// Bring-your-own-key provider credentials: their API, and the ledger's question of whether a call is
// paid with one (usage rows marked byok, the key's byok_usage, no credits).
import { Type } from 'typebox'
import { checkBounds, uuidIds } from '../../core/lifecycle.ts'
import { Nullable } from '../../http/schemas.ts'
import type { Limit } from '../../core/limits.ts'
import { defineModule } from '../module.ts'
import { byokAdminRoutes } from './byok.admin.ts'
import { byokState, createByokRepo, type ByokRepo } from './byok.repo.ts'
import { byokRoutes } from './byok.routes.ts'
import { MAX_ACCOUNT_CREDENTIALS, MAX_KEY_LENGTH, MAX_TOTAL_CREDENTIALS } from './byok.schemas.ts'
import { paysWithOwnKey, type ByokQuestion } from './byok.service.ts'

export interface ByokService extends ByokRepo {
  /** Whether this call, routed to this provider, is paid with the caller's own provider key. */
  paysWithOwnKey(question: ByokQuestion): boolean
}

declare module '../module.ts' {
  interface Services {
    byok: ByokService
  }
}

const StringList = Nullable(Type.Array(Type.String()))

/** What this area bounds (docs/limits.md). */
const LIMITS: readonly Limit[] = [
  { what: 'Provider credentials per account', value: MAX_ACCOUNT_CREDENTIALS, unit: 'items', beyond: '409 naming the limit' },
  { what: 'Provider credentials in all', value: MAX_TOTAL_CREDENTIALS, unit: 'items', beyond: '409 naming the limit' },
  { what: 'Characters of a provider key', value: MAX_KEY_LENGTH, unit: 'characters', beyond: '400 naming `key`' },
]

export const byokModule = defineModule({
  name: 'byok',
  limits: LIMITS,
  needs: ['accounts', 'catalog', 'keys', 'workspaces'],
  create: (ctx) => {
    const repo = createByokRepo(ctx.db)
    ctx.services.workspaces.holds('BYOK credentials', repo.countInWorkspace)
    return Object.assign(repo, { paysWithOwnKey: (question: ByokQuestion) => paysWithOwnKey(repo, question) })
  },
  state: (ctx) => [
    {
      ...byokState(ctx.db),
      imports: {
        byok_credentials: {
          json: { allowed_models: StringList, allowed_api_key_hashes: StringList, allowed_user_ids: StringList },
          checkAll: (rows) =>
            checkBounds('byok_credentials', rows, [
              {
                most: MAX_ACCOUNT_CREDENTIALS,
                groupOf: (row) => row['account_id'],
                column: 'account_id',
                issue: `is past the ${MAX_ACCOUNT_CREDENTIALS} BYOK credentials one account keeps`,
              },
              { most: MAX_TOTAL_CREDENTIALS, column: null, issue: `is past the ${MAX_TOTAL_CREDENTIALS} BYOK credentials the emulator keeps in all` },
            ]),
        },
      },
      mints: [uuidIds('byok', 'byok_credentials')],
    },
  ],
  gateway: byokRoutes,
  admin: byokAdminRoutes,
})
