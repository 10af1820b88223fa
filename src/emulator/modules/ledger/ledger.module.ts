// The ledger: bill and settle a request in one transaction with its checks (credits, key limit,
// guardrails). No state or routes of its own: chat, embeddings and video call its functions.
import { defineModule } from '../module.ts'
import { LEDGER_CONFIG } from './ledger.config.ts'

export const ledgerModule = defineModule({
  name: 'ledger',
  config: LEDGER_CONFIG,
  needs: ['accounts', 'catalog', 'guardrails', 'keys', 'usage', 'journal', 'workspaces', 'byok'],
})
