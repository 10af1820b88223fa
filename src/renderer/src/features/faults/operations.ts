// Operation ids for the "apply to operation" fields: read from the emulator's OpenAPI document (the
// gateway's and the router's, not the admin API's, which faults never touch), with a fallback.
import { useQuery } from '@tanstack/react-query'
import { api, type OpenApiDocument } from '../../api.ts'

export const COMMON_OPERATIONS = [
  'embeddings.create',
  'models.list',
  'models.endpoints',
  'keys.list',
  'credits.get',
  'activity.list',
  'guardrails.list',
  'video.text2video',
  'video.img2video',
  'video.tasks.get',
]

/** The gateway's and the router's operation ids, the common ones first; null when the document names none. */
function operationIds(doc: OpenApiDocument): string[] | null {
  const ids = new Set<string>()
  for (const methods of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(methods)) {
      if (op && typeof op === 'object' && op.operationId && !op.operationId.startsWith('admin.')) ids.add(op.operationId)
    }
  }
  return ids.size > 0 ? [...COMMON_OPERATIONS.filter((o) => ids.has(o)), ...[...ids].filter((o) => !COMMON_OPERATIONS.includes(o)).sort()] : null
}

/** The ids, and whether they are the emulator's own list (not the fallback). */
export function useOperationIds(): { ids: string[]; complete: boolean } {
  const { data } = useQuery({
    queryKey: ['openapi'],
    queryFn: api.openapi.get,
    select: operationIds,
    staleTime: Infinity,
    refetchInterval: false,
    refetchOnWindowFocus: false,
  })
  return data ? { ids: data, complete: true } : { ids: COMMON_OPERATIONS, complete: false }
}
