// The words for a dataset request refused for its query: a date that is no date or lies outside the
// dataset, a window too long, filters that cannot go together. Each names its query parameter.
import { fieldError, type ApiError } from '../../core/errors.ts'

const query = (field: string, issue: string): ApiError => fieldError(field, issue, 'querystring')

export const notADate = (field: string): ApiError => query(field, 'must be a calendar date as YYYY-MM-DD')

export const beforeDataset = (field: string, first: string): ApiError => query(field, `must be on or after ${first}, the first day of the dataset`)

export const startAfterEnd = (start: string, end: string): ApiError => query('start_date', `(${start}) must be on or before end_date (${end})`)

export const windowTooLong = (days: number, max: number): ApiError =>
  query('start_date', `opens a window of ${days} days; a window spans at most ${max} days: move start_date or end_date closer`)

export const notTogether = (field: string, other: string, why: string): ApiError => query(field, `cannot be combined with \`${other}\`: ${why}`)

export const subcategoryOutsideCategory = (subcategory: string, category: string, members: readonly string[]): ApiError =>
  query('subcategory', `(${subcategory}) is not in the \`${category}\` category, whose subcategories are ${members.join(', ') || 'none'}`)

export const unknownCategory = (field: string, value: string, known: readonly string[]): ApiError =>
  query(field, `(${value}) is not one of ${known.join(', ')}`)
