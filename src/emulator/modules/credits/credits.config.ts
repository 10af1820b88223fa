// The credits' part of the configuration: whether crypto charges are made (the spec) or gone (the
// real, deprecated endpoint), and the charges' bound, expiry and confirmation.
import { oneOf, positiveNumber, duration, durationOrOff, setting } from '../../core/settings.ts'

/** How the crypto charge endpoint answers: one of the switches between the spec and the real service. */
export const CRYPTO_CHARGES_CONFIG = [
  setting({
    key: 'cryptoCharges',
    flag: 'crypto-charges',
    arg: 'create|gone',
    default: 'create',
    help: '`create` charges (the spec), or `gone`: 410 Gone as the real, deprecated endpoint',
    parse: oneOf(['create', 'gone'] as const),
  }),
] as const

/** The charges' bound and timing. */
export const CHARGES_CONFIG = [
  setting({ key: 'chargeCapUsd', flag: 'charge-cap', arg: '<usd>', default: 2000, help: 'largest crypto charge, in USD', parse: positiveNumber }),
  setting({
    key: 'chargeExpiryMs',
    flag: 'charge-expiry',
    arg: '<dur>',
    default: 3_600_000,
    help: 'how long a charge stays payable (`30s`, `15m`, `2h`, `1d`, or milliseconds; virtual time)',
    parse: duration,
  }),
  setting({
    key: 'chargeAutoConfirmMs',
    flag: 'charge-auto-confirm',
    arg: '<dur>|off',
    default: null as number | null,
    help: 'confirm pending charges by themselves after this long (virtual time)',
    parse: durationOrOff,
  }),
] as const

export const CREDITS_CONFIG = [...CRYPTO_CHARGES_CONFIG, ...CHARGES_CONFIG] as const
