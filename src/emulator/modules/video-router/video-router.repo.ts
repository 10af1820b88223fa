// Prepared SQL for video tasks and their state timeline.
import type { DB } from '../../store/db.ts'
import type { StateOwner } from '../../core/lifecycle.ts'
import type { TaskState } from './video-router.schemas.ts'

import type { VideoTaskOutcome } from './video-router.schemas.ts'

export type TaskOutcome = VideoTaskOutcome

export interface TaskRow {
  id: string
  account_id: string
  key_hash: string | null
  operation: string
  model: string | null
  template: string | null
  /** JSON of the checked request (VideoRequest without the images' bytes). */
  request: string
  state: TaskState
  err_code: string
  credits: number
  usage_id: number | null
  refunded: 0 | 1
  payload: string
  callback_url: string | null
  origin: string
  off_peak: 0 | 1
  watermark: 0 | 1
  outcome: TaskOutcome
  fail_code: string | null
  /** Virtual time of the next transition; null when the task waits for nothing (done, or stuck). */
  next_at: number | null
  state_at: number
  created_at: number
}

export function createVideoRepo(db: DB) {
  const insertStmt = db.prepare<TaskRow>(
    `INSERT INTO video_tasks (id, account_id, key_hash, operation, model, template, request, state, err_code, credits, usage_id,
       refunded, payload, callback_url, origin, off_peak, watermark, outcome, fail_code, next_at, state_at, created_at)
     VALUES (@id, @account_id, @key_hash, @operation, @model, @template, @request, @state, @err_code, @credits, @usage_id,
       @refunded, @payload, @callback_url, @origin, @off_peak, @watermark, @outcome, @fail_code, @next_at, @state_at, @created_at)`,
  )
  const getStmt = db.prepare<[string], TaskRow>('SELECT * FROM video_tasks WHERE id = ?')
  const moveStmt = db.prepare<{ id: string; state: TaskState; err_code: string; next_at: number | null; state_at: number; refunded: 0 | 1 }>(
    'UPDATE video_tasks SET state = @state, err_code = @err_code, next_at = @next_at, state_at = @state_at, refunded = @refunded WHERE id = @id',
  )
  const planStmt = db.prepare<{ id: string; outcome: TaskOutcome; fail_code: string | null; next_at: number | null }>(
    'UPDATE video_tasks SET outcome = @outcome, fail_code = @fail_code, next_at = COALESCE(@next_at, next_at) WHERE id = @id',
  )
  const timelineInsertStmt = db.prepare<{ task_id: string; state: string; at: number }>(
    'INSERT INTO video_task_states (task_id, state, at) VALUES (@task_id, @state, @at)',
  )
  const timelineStmt = db.prepare<[string], { state: TaskState; at: number }>('SELECT state, at FROM video_task_states WHERE task_id = ? ORDER BY at, rowid')
  const dueStmt = db.prepare<[number], TaskRow>('SELECT * FROM video_tasks WHERE next_at IS NOT NULL AND next_at <= ? ORDER BY next_at, created_at, id')
  const nextDueStmt = db.prepare<[], { at: number | null }>('SELECT MIN(next_at) AS at FROM video_tasks WHERE next_at IS NOT NULL')
  // `except`: an operation left out (the router's list leaves out the gateway's jobs).
  const listStmt = db.prepare<{ account_id: string | null; states: string | null; except: string | null; limit: number; offset: number }, TaskRow>(
    `SELECT * FROM video_tasks
     WHERE (@account_id IS NULL OR account_id = @account_id)
       AND (@states IS NULL OR state IN (SELECT value FROM json_each(@states)))
       AND (@except IS NULL OR operation != @except)
     ORDER BY created_at DESC, rowid DESC LIMIT @limit OFFSET @offset`,
  )
  const countStmt = db.prepare<{ account_id: string | null; states: string | null; except: string | null }, { n: number }>(
    `SELECT COUNT(*) AS n FROM video_tasks
     WHERE (@account_id IS NULL OR account_id = @account_id) AND (@states IS NULL OR state IN (SELECT value FROM json_each(@states)))
       AND (@except IS NULL OR operation != @except)`,
  )

  return {
    insert: (row: TaskRow) => void insertStmt.run(row),
    get: (id: string) => getStmt.get(id),
    move: (row: { id: string; state: TaskState; err_code: string; next_at: number | null; state_at: number; refunded: 0 | 1 }) => void moveStmt.run(row),
    plan: (row: { id: string; outcome: TaskOutcome; fail_code: string | null; next_at: number | null }) => void planStmt.run(row),
    recordState: (task_id: string, state: string, at: number) => void timelineInsertStmt.run({ task_id, state, at }),
    timeline: (id: string) => timelineStmt.all(id),
    due: (now: number) => dueStmt.all(now),
    nextDue: () => nextDueStmt.get()!.at,
    list: (q: { account_id: string | null; states: string[] | null; except?: string; limit: number; offset: number }) =>
      listStmt.all({ ...q, states: q.states ? JSON.stringify(q.states) : null, except: q.except ?? null }),
    count: (q: { account_id: string | null; states: string[] | null; except?: string }) =>
      countStmt.get({ ...q, states: q.states ? JSON.stringify(q.states) : null, except: q.except ?? null })!.n,
  }
}

export type VideoRepo = ReturnType<typeof createVideoRepo>

/** Video tasks and their timelines (the engine's settings are the service's: see VideoService.state). */
export function videoTables(db: DB): Pick<StateOwner, 'tables' | 'resetAccount'> {
  const forget = [
    'DELETE FROM video_task_states WHERE task_id IN (SELECT id FROM video_tasks WHERE account_id = ?)',
    'DELETE FROM video_tasks WHERE account_id = ?',
  ].map((sql) => db.prepare<[string]>(sql))
  return { tables: ['video_tasks', 'video_task_states'], resetAccount: (id) => forget.forEach((stmt) => stmt.run(id)) }
}
