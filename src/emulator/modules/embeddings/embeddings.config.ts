// The embeddings' part of the configuration: which lists of numbers a request may embed.
import { oneOf, setting } from '../../core/settings.ts'

export const EMBEDDINGS_CONFIG = [
  setting({
    key: 'embeddingsNumbers',
    flag: 'embeddings-numbers',
    arg: 'doubles|token-ids',
    default: 'doubles',
    help: 'a list of numbers as embeddings input: any `doubles` (the spec) or `token-ids` only (the real service)',
    parse: oneOf(['doubles', 'token-ids'] as const),
  }),
] as const
