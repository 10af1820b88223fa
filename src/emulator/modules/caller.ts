// Who is calling: the key a request authenticated with, and its account. Shared by the HTTP layer
// (which finds it) and the modules (which act for it), so neither imports the other for it.
import type { AccountRow } from './accounts/accounts.repo.ts'
import type { KeyRow } from './keys/keys.repo.ts'

export interface AuthContext {
  key: KeyRow
  account: AccountRow
}
