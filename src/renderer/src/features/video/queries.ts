// What the Video view reads. Keys start with the area events.ts invalidates: ['video', 'tasks'] (a
// task's state moves, the clock moves) and ['callbacks', taskId] (a delivery is attempted).
import { useQuery } from '@tanstack/react-query'
import { api } from '../../api.ts'

export const videoTasksKey = ['video', 'tasks'] as const
export const callbacksKey = (taskId: string) => ['callbacks', taskId] as const

/** The newest 200 tasks, and the count of all. */
export function useVideoTasks() {
  return useQuery({ queryKey: videoTasksKey, queryFn: () => api.video.tasks(200) })
}

/** A task's callback deliveries, in the order they were made, as the timeline reads. */
export function useCallbacks(taskId: string) {
  return useQuery({
    queryKey: callbacksKey(taskId),
    queryFn: () => api.callbacks.list(taskId).then((list) => list.sort((a, b) => a.created_at.localeCompare(b.created_at))),
  })
}
