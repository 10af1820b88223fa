// The catalog's part of the configuration for resolving model ids (catalog-resolve.service.ts): whether
// an id the snapshot lacks is refused, as the real gateway refuses it, or served as a generic model.
import { boolean, setting } from '../../core/settings.ts'

export const CATALOG_RESOLVE_CONFIG = [
  setting({
    key: 'genericModels',
    flag: 'generic-models',
    cli: 'switch',
    default: false,
    help: 'serve any well-formed `author/slug` the catalog lacks as a generic model of the route’s kind, at the default prices of docs/models.md, instead of the real 400',
    details: 'for apps that name models newer than the catalog snapshot; `openrouter/auto`, variants and known ids resolve as without it',
    parse: boolean,
  }),
] as const
