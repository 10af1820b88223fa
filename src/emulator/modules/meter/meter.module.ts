// The meter: admits, prices, bills and records every billed call (meter.service.ts), with the pricers
// (meter-pricers.service.ts). No state or routes of its own: the ledger keeps the money, the generations module
// the generation rows, the journal what a request caused.
import { defineModule } from '../module.ts'

export const meterModule = defineModule({ name: 'meter', needs: ['catalog', 'generations', 'journal', 'ledger', 'ratelimit'] })
