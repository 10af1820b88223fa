// GET /api/v1/classifications/task: the share of requests and tokens of each task tag of the fixture
// over the trailing window (up to yesterday), grouped into its macro categories, with each tag's top
// catalog models. A tag's volume is a fixed draw of the seed with daily noise; its models lean to those
// the catalog lists in the tag's preferred category. Shares are in millionths that sum exactly.
import type { Static } from 'typebox'
import type { EmulatorContext } from '../module.ts'
import type { ClassificationsFixture } from './datasets.fixtures.ts'
import type { TaskClassificationsResponse } from './datasets.schemas.ts'
import { constant, dayIndex, fromMillionths, isoDay, keyOf, logWithin, millionths, unitAt, within } from './datasets-draws.service.ts'
import { outputs, permaslugOf } from './datasets.models.ts'

type Answer = Static<(typeof TaskClassificationsResponse)[200]>

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0)

export function taskClassifications(ctx: EmulatorContext, fixture: ClassificationsFixture): Answer {
  const seed = ctx.config.seed
  const last = dayIndex(ctx.clock.now()) - 1
  const days = Array.from({ length: fixture.window_days }, (_, i) => last - i)
  const tags = fixture.tags.map((t) => {
    const key = keyOf(seed, `tag:${t.tag}`)
    const base = 0.15 + constant(key, 0)
    const requests = sum(days.map((day) => base * (1 + fixture.daily_noise * (2 * unitAt(key, day) - 1))))
    return { ...t, key, macro: t.tag.split(':')[0]!, requests, tokens: requests * logWithin(fixture.tokens_per_request, constant(key, 1)) }
  })
  const usage = millionths(tags.map((t) => t.requests))
  const tokens = millionths(tags.map((t) => t.tokens))

  const candidates = ctx.services.catalog
    .get()
    .models.filter((m) => outputs(m, 'text') && !m.id.endsWith(':free'))
    .map((m) => ({ model: m, slug: permaslugOf(m), key: keyOf(seed, `tag-model:${m.id}`) }))

  const classifications = tags.map((t, i) => {
    const inMacro = tags.flatMap((o, j) => (o.macro === t.macro ? [j] : []))
    const position = inMacro.indexOf(i)
    const categoryUsage = millionths(inMacro.map((j) => usage[j]!))
    const categoryTokens = millionths(inMacro.map((j) => tokens[j]!))
    // A tag's models: the heaviest of the candidates, those of its preferred category weighing more.
    const top = candidates
      .map((c) => ({ ...c, weight: unitAt(t.key, c.key) ** 2 * (t.prefers !== undefined && (c.model.categories as string[]).includes(t.prefers) ? 3 : 1) }))
      .sort((a, b) => b.weight - a.weight || (a.slug < b.slug ? -1 : 1))
      .slice(0, fixture.models_per_tag)
    // Together they cover part of the tag's traffic, never all of it (the rest is the long tail).
    const covered = Math.round(within({ min: 0.55, max: 0.92 }, constant(t.key, 2)) * 1_000_000)
    const modelUsage = millionths(
      top.map((c) => c.weight),
      covered,
    )
    const modelTokens = millionths(
      top.map((c) => c.weight * (0.6 + constant(c.key, 0))),
      covered,
    )
    return {
      tag: t.tag,
      display_name: t.display_name,
      macro_category: t.macro,
      usage_share: fromMillionths(usage[i]!),
      token_share: fromMillionths(tokens[i]!),
      category_usage_share: fromMillionths(categoryUsage[position]!),
      category_token_share: fromMillionths(categoryTokens[position]!),
      models: top
        .map((c, j) => ({ id: c.slug, tag_usage_share: fromMillionths(modelUsage[j]!), tag_token_share: fromMillionths(modelTokens[j]!) }))
        .sort((a, b) => b.tag_usage_share - a.tag_usage_share || (a.id < b.id ? -1 : 1)),
    }
  })
  classifications.sort((a, b) => b.usage_share - a.usage_share || (a.tag < b.tag ? -1 : 1))

  const macro_categories = fixture.macro_categories.map((m) => {
    const members = tags.flatMap((t, i) => (t.macro === m.key ? [i] : []))
    return {
      key: m.key,
      label: m.label,
      usage_share: fromMillionths(sum(members.map((i) => usage[i]!))),
      token_share: fromMillionths(sum(members.map((i) => tokens[i]!))),
    }
  })
  return { data: { window_days: fixture.window_days, as_of: isoDay(last), classifications, macro_categories } }
}
