// What a new event-stream connection reads again: every query but the journal entries the stream
// pushes, so an entry pushed while the queries refresh is never dropped (it was, now and then, when a
// request finished in the instant the inspector connected).
import { describe, expect, it } from 'vitest'
import { refreshAfterConnect, type Invalidator } from '../../../src/renderer/src/refresh.ts'

describe('refreshAfterConnect', () => {
  it('invalidates every query but the live journal entries', () => {
    const keys: unknown[][] = [['journal', 'live'], ['journal', 'requests-view', 'page'], ['journal', 'requests-view', 'entry', 3], ['accounts'], ['video']]
    let invalidated: unknown[][] = []
    const client: Invalidator = {
      invalidateQueries: ({ predicate }) => {
        invalidated = keys.filter((queryKey) => predicate({ queryKey }))
        return Promise.resolve()
      },
    }
    refreshAfterConnect(client)
    expect(invalidated).toEqual([['journal', 'requests-view', 'page'], ['journal', 'requests-view', 'entry', 3], ['accounts'], ['video']])
  })
})
