// What the callbacks area refuses over the admin API: a delivery that does not exist, and one more
// retry of a task whose receiver has had all the attempts one task gets.
import { ApiError } from '../../core/errors.ts'

export const deliveryNotFound = (id: string): ApiError => new ApiError(404, `Callback delivery ${id} not found`)

export const callbackAttemptsUsedUp = (taskId: string, made: number, limit: number): ApiError =>
  new ApiError(429, `Task ${taskId} has had ${made} callback attempts, the most one task gets; create a new task to try its receiver again`, {
    metadata: { field: 'id', location: 'params', limit },
  })
