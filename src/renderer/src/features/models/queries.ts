// What the Models view reads: the running catalog, through the query every view shares (queries.ts:
// one key, ['catalog'], which events.ts reads again when the catalog changes), turned into rows once
// per catalog by `select` (a function of the module, so the rows are kept until the catalog changes).
import { useQuery } from '@tanstack/react-query'
import { catalogQuery } from '../../queries.ts'
import { modelRows } from './models.ts'

export function useModelRows() {
  return useQuery({ ...catalogQuery, select: modelRows })
}
