// What a new event-stream connection reads again. Nothing of the DOM or of React here, so the unit
// tests (compiled for Node) import it.

/** The part of a query client this needs. */
export interface Invalidator {
  invalidateQueries(filters: { predicate: (query: { queryKey: readonly unknown[] }) => boolean }): Promise<void>
}

const isLiveJournal = (key: readonly unknown[]): boolean => key[0] === 'journal' && key[1] === 'live'

/**
 * After a new connection: every query is read again, except the journal entries the stream itself
 * pushes. Emptied too, an entry pushed in the instant they were being emptied would be lost, while the
 * journal's page, read again, has every entry from before.
 */
export function refreshAfterConnect(client: Invalidator): void {
  void client.invalidateQueries({ predicate: (query) => !isLiveJournal(query.queryKey) })
}
