// What /metrics reads from the database at scrape time: the ledger's usage rows grouped by operation
// and model, and the chat fixtures' hits. Read-only; the statements are prepared at the first scrape,
// so an emulator nobody scrapes pays nothing for them.
import type { DB } from '../../store/db.ts'

export interface LedgerTotals {
  operation: string
  model: string
  rows: number
  cost_nanos: number
  prompt_tokens: number
  completion_tokens: number
  reasoning_tokens: number
}

export interface FixtureTotals {
  fixtures: number
  hits: number
}

export function createMetricsRepo(db: DB) {
  let statements: { ledger: () => LedgerTotals[]; fixtures: () => FixtureTotals } | undefined
  const prepared = () => {
    if (statements) return statements
    const ledger = db.prepare<[], LedgerTotals>(
      `SELECT operation, model, COUNT(*) AS rows, SUM(cost_nanos) AS cost_nanos,
              SUM(prompt_tokens) AS prompt_tokens, SUM(completion_tokens) AS completion_tokens, SUM(reasoning_tokens) AS reasoning_tokens
       FROM usage GROUP BY operation, model`,
    )
    const fixtures = db.prepare<[], FixtureTotals>('SELECT COUNT(*) AS fixtures, COALESCE(SUM(hits), 0) AS hits FROM chat_fixtures')
    statements = { ledger: () => ledger.all(), fixtures: () => fixtures.get()! }
    return statements
  }
  return {
    ledgerTotals: (): LedgerTotals[] => prepared().ledger(),
    fixtureTotals: (): FixtureTotals => prepared().fixtures(),
  }
}

export type MetricsRepo = ReturnType<typeof createMetricsRepo>
