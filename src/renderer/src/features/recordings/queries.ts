// What the Recordings view reads: the files loaded from --replay <dir>. ['recordings']: events.ts
// invalidates it when a replayed answer uses a file or a proxied one may have saved one (recordings.ts).
import { useQuery } from '@tanstack/react-query'
import { api } from '../../api.ts'

export const recordingsKey = ['recordings'] as const

export function useRecordings() {
  return useQuery({ queryKey: recordingsKey, queryFn: api.recordings.list, refetchInterval: false })
}
