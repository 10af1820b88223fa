// The words for an analytics query refused for what it names: an unknown metric or dimension, a time
// range too long for what it asks, a classifier the account does not have. Each names its field.
import { fieldError, type ApiError } from '../../core/errors.ts'

export const unknownName = (field: string, kind: 'metric' | 'dimension', known: readonly string[]): ApiError =>
  fieldError(field, `is not a ${kind} (GET /api/v1/analytics/meta lists them: ${known.join(', ')})`)

export const repeated = (field: string, name: string): ApiError => fieldError(field, `repeats \`${name}\`: name each once`)

export const rangeTooLong = (days: number, max: number, reason: string): ApiError =>
  fieldError('time_range', `spans ${days} days; ${reason} span at most ${max} days: narrow the range`)

/** The emulator keeps no classifiers, so no classifier id is one of the workspace's. */
export const noSuchClassifier = (field: string, id: string): ApiError =>
  fieldError(
    field,
    `names no active classifier of this workspace (${id}): the emulator has no classifiers, so leave classifier_dimensions and classifier_filters out`,
  )
