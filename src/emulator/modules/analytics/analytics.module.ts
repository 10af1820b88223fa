// Analytics: the gateway's metrics (requests, tokens, spend, latency) by model, provider, key, member
// and time bucket, computed from the ledger's usage rows.
import type { Limit } from '../../core/limits.ts'
import { defineModule } from '../module.ts'
import { MAX_FILTER_VALUES, MAX_LIMIT, MAX_VALUE_LENGTH } from './analytics.schemas.ts'
import { MAX_RANGE_DAYS } from './analytics.service.ts'
import { analyticsRoutes } from './analytics.routes.ts'

/** What this area bounds (docs/limits.md). */
const LIMITS: readonly Limit[] = [
  { what: 'Rows one query answers (`limit`)', value: MAX_LIMIT, unit: 'items', beyond: '400 naming `limit`' },
  { what: 'Values one `in`/`not_in` filter lists', value: MAX_FILTER_VALUES, unit: 'items', beyond: '400 naming the filter' },
  { what: 'Characters of one filter value', value: MAX_VALUE_LENGTH, unit: 'characters', beyond: '400 naming the filter' },
  { what: 'Days one query spans', value: MAX_RANGE_DAYS, unit: 'items', beyond: '400 naming `time_range` and the limit' },
]

export const analyticsModule = defineModule({ name: 'analytics', limits: LIMITS, needs: ['catalog', 'keys', 'usage'], gateway: analyticsRoutes })
