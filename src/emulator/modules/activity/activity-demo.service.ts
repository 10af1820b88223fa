// Demo data: 30 days of plausible usage across the account's keys, a handful of models and their
// providers, so activity, key usage and credits look lived-in. Generated with faker drawing from a
// core/rng stream of the seed, so the same seed gives the same history; written like the ledger
// writes (usage rows plus the debit).
import { startOfUtcDay } from '../../core/clock.ts'
import type { EmulatorContext } from '../module.ts'
import type { MakeFaker } from '../../core/faker.ts'
import { createRng } from '../../core/rng.ts'
import type { CatalogModel } from '../catalog/catalog.schemas.ts'
import { tokensNanos } from '../meter/meter-pricers.service.ts'

const DAY = 86_400_000
const DAYS = 30
/** The history never spends more than this share of the account's credits. */
const MAX_SHARE_OF_CREDITS = 0.4

export function backfillDemoUsage(ctx: EmulatorContext, makeFaker: MakeFaker, accountId: string): number {
  const faker = makeFaker(createRng(ctx.config.seed, 'demo'))
  const now = ctx.clock.now()
  const account = ctx.services.accounts.get(accountId)!
  // Keys with a limit stay out of the history, so none starts over its limit.
  const keys = ctx.services.keys
    .forAccount(accountId)
    .filter((k) => k.kind === 'standard' && !k.disabled && k.limit_nanos === null && (k.expires_at === null || k.expires_at > now))
  const catalog = ctx.services.catalog.get().models.filter((m) => !m.id.endsWith(':free') && m.endpoints.some((e) => e.status === 0))
  const text = catalog.filter((m) => m.architecture.output_modalities.includes('text'))
  const embeddings = catalog.filter((m) => m.architecture.output_modalities.includes('embeddings'))
  if (keys.length === 0 || text.length === 0) return 0
  const models: CatalogModel[] = [
    ...faker.helpers.arrayElements(text, Math.min(6, text.length)),
    ...faker.helpers.arrayElements(embeddings, Math.min(2, embeddings.length)),
  ]
  // The account and its keys existed before their history did.
  const since = startOfUtcDay(now) - (DAYS + 1) * DAY
  for (const table of ['accounts', 'members', 'api_keys']) {
    ctx.db.prepare(`UPDATE ${table} SET created_at = ? WHERE ${table === 'accounts' ? 'id' : 'account_id'} = ? AND created_at > ?`).run(since, accountId, since)
  }
  let budget = Math.max(0, (account.credits_nanos - account.spent_nanos) * MAX_SHARE_OF_CREDITS)
  let rows = 0

  for (let daysAgo = DAYS; daysAgo >= 0; daysAgo--) {
    const dayStart = startOfUtcDay(now) - daysAgo * DAY
    const weekday = new Date(dayStart).getUTCDay()
    const busy = weekday === 0 || weekday === 6 ? 0.4 : 1
    const requests = Math.round(faker.number.int({ min: 6, max: 28 }) * busy)
    for (let i = 0; i < requests; i++) {
      const at = dayStart + faker.number.int({ min: 0, max: DAY - 1 })
      if (at > now) continue
      const key = faker.helpers.weightedArrayElement(keys.map((k, j) => ({ value: k, weight: j === 0 ? 4 : 1 })))
      const model = faker.helpers.arrayElement(models)
      const endpoint = faker.helpers.arrayElement(model.endpoints.filter((e) => e.status === 0))
      const isEmbeddings = model.architecture.output_modalities.includes('embeddings')
      const prompt = isEmbeddings ? faker.number.int({ min: 20, max: 2000 }) : faker.number.int({ min: 300, max: 6000 })
      const completion = isEmbeddings ? 0 : faker.number.int({ min: 40, max: 1500 })
      const reasoning = !isEmbeddings && model.supported_parameters.includes('reasoning') ? faker.number.int({ min: 0, max: 800 }) : 0
      const byok = faker.datatype.boolean({ probability: 0.08 })
      const cost = tokensNanos(endpoint.pricing, { prompt, completion: completion + reasoning })
      if (!byok && cost > budget) continue
      ctx.services.usage.insert({
        account_id: accountId,
        key_hash: key.hash,
        member_id: key.creator_user_id,
        operation: isEmbeddings ? 'embeddings.create' : 'chat.completions',
        model: model.id,
        provider: endpoint.provider_name,
        endpoint_id: endpoint.id,
        prompt_tokens: prompt,
        completion_tokens: completion,
        reasoning_tokens: reasoning,
        cost_nanos: cost,
        byok: byok ? 1 : 0,
        created_at: at,
        workspace_id: key.workspace_id ?? account.workspace_id,
      })
      if (!byok) {
        ctx.services.accounts.addSpend(accountId, cost)
        budget -= cost
      }
      rows++
    }
  }
  return rows
}
