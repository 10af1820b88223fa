// The ledger's part of the configuration: the status of a request over its key's spending limit.
import { oneOf, setting } from '../../core/settings.ts'

export const LEDGER_CONFIG = [
  setting({
    key: 'keyLimitStatus',
    flag: 'key-limit-status',
    arg: '402|403',
    default: 402,
    help: "status for a request over a key's spending limit",
    details: 'the real service was seen to send both',
    parse: oneOf([402, 403] as const),
  }),
] as const
