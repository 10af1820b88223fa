// GET /api/v1/analytics/meta and POST /api/v1/analytics/query: the query body (its shape only; what
// the names mean is checked against the meta in analytics.service.ts, naming the field) and the answers.
import { Type, type Static } from 'typebox'
import { ErrorEnvelope, StringEnum } from '../../http/schemas.ts'
import { DISPLAY_FORMATS, GRANULARITY_NAMES, OPERATOR_NAMES } from './analytics-meta.service.ts'

/** The most rows one query answers (the default is 1,000). */
export const MAX_LIMIT = 10_000
/** The most values one `in`/`not_in` filter lists. */
export const MAX_FILTER_VALUES = 1_000

const Name = Type.String({ minLength: 1, maxLength: 100 })
/** The most characters of one filter value. */
export const MAX_VALUE_LENGTH = 1000
// Checked where the operator is known (analytics.service.ts), so a refusal says what this operator takes.
const FilterValue = Type.Unknown({
  description: `A string or number for eq, neq, gt, gte, lt and lte; an array of up to ${MAX_FILTER_VALUES} of them for in and not_in`,
})

const Filter = Type.Object(
  {
    field: Name,
    operator: Name,
    value: FilterValue,
    include_unset: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)

const ClassifierFilter = Type.Object({ field: Name, operator: Name, value: FilterValue }, { additionalProperties: false })

export const AnalyticsQueryBody = Type.Object(
  {
    metrics: Type.Array(Name, { minItems: 1, maxItems: 20, description: 'Metric names (GET /api/v1/analytics/meta)' }),
    dimensions: Type.Optional(Type.Array(Name, { maxItems: 2, description: 'Up to two dimensions to group by' })),
    filters: Type.Optional(Type.Array(Filter, { maxItems: 20 })),
    granularity: Type.Optional(StringEnum(GRANULARITY_NAMES, { description: 'Time buckets: each row carries `date__<granularity>`' })),
    group_limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, description: 'The most rows per combination of dimension values' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, description: 'The most rows in all (default 1000)' })),
    order_by: Type.Optional(Type.Object({ field: Name, direction: StringEnum(['asc', 'desc'] as const) }, { additionalProperties: false })),
    time_range: Type.Optional(
      Type.Object(
        { start: Type.String({ format: 'date-time' }), end: Type.String({ format: 'date-time' }) },
        { additionalProperties: false, description: 'Defaults to the 7 days before now; end is exclusive' },
      ),
    ),
    classifier_dimensions: Type.Optional(
      Type.Object(
        {
          classifier_id: Type.String({ format: 'uuid' }),
          dimension_names: Type.Optional(Type.Array(Name, { maxItems: 2 })),
          include_nulls: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    ),
    classifier_filters: Type.Optional(
      Type.Object(
        { classifier_id: Type.String({ format: 'uuid' }), filters: Type.Array(ClassifierFilter, { minItems: 1, maxItems: 10 }) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
)
export type AnalyticsQueryBody = Static<typeof AnalyticsQueryBody>
export type AnalyticsFilter = Static<typeof Filter>

const Labelled = { name: Type.String(), display_label: Type.String() }

export const AnalyticsMetaResponse = {
  200: Type.Object({
    data: Type.Object({
      metrics: Type.Array(
        Type.Object({
          ...Labelled,
          is_rate: Type.Boolean({ description: 'A ratio or average (not summed over buckets)' }),
          display_format: StringEnum(DISPLAY_FORMATS),
        }),
      ),
      dimensions: Type.Array(Type.Object(Labelled)),
      operators: Type.Array(Type.Object({ name: StringEnum(OPERATOR_NAMES), value_type: StringEnum(['scalar', 'array'] as const) })),
      granularities: Type.Array(Type.Object({ name: StringEnum(GRANULARITY_NAMES), display_label: Type.String() })),
    }),
  }),
  '4xx': ErrorEnvelope,
}

/** A row: `date__<granularity>` (when asked), the dimensions, then the metrics, by name. */
const Row = Type.Object({}, { additionalProperties: true, description: 'A row of metric and dimension values, keyed by their names' })

export const AnalyticsQueryResponse = {
  200: Type.Object({
    data: Type.Object({
      data: Type.Array(Row),
      metadata: Type.Object({
        query_time_ms: Type.Number({ description: 'Derived from the rows read, so the same query gives the same bytes (not a wall-clock measure)' }),
        row_count: Type.Integer(),
        truncated: Type.Boolean({ description: '`limit` or `group_limit` left rows out' }),
      }),
      warnings: Type.Optional(
        Type.Array(Type.String(), { description: 'Filter values that resolve to nothing (an api_key_id that is no key of the account)' }),
      ),
    }),
  }),
  '4xx': ErrorEnvelope,
}
