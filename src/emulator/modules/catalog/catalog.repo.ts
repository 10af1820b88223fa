// The catalog as changed through the admin API (one row); absent means the fixtures' catalog.
import type { DB } from '../../store/db.ts'

export function createCatalogRepo(db: DB) {
  const getStmt = db.prepare<[], { document: string }>('SELECT document FROM catalog_override WHERE id = 1')
  const setStmt = db.prepare<{ document: string; updated_at: number }>(
    `INSERT INTO catalog_override (id, document, updated_at) VALUES (1, @document, @updated_at)
     ON CONFLICT (id) DO UPDATE SET document = excluded.document, updated_at = excluded.updated_at`,
  )
  const clearStmt = db.prepare('DELETE FROM catalog_override')
  return {
    override: (): string | null => getStmt.get()?.document ?? null,
    setOverride: (document: string, now: number) => void setStmt.run({ document, updated_at: now }),
    clearOverride: () => void clearStmt.run(),
  }
}

export type CatalogRepo = ReturnType<typeof createCatalogRepo>
