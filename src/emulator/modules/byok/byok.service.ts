// BYOK credentials as the API shows them, the rules their changes follow, and the ledger's question:
// is this call, routed to this provider, paid with the caller's own provider key?
import { toIso } from '../../core/clock.ts'
import type { AccountRow } from '../accounts/accounts.repo.ts'
import type { Catalog } from '../catalog/catalog-index.service.ts'
import { modelNamedIn, type ModelNames } from '../catalog/catalog-policy.service.ts'
import type { KeyRow } from '../keys/keys.repo.ts'
import type { EmulatorContext } from '../module.ts'
import { credentialNotFound, notAnAccountKey, tooManyCredentials, unknownProvider } from './byok.errors.ts'
import type { ByokRepo, ByokRow } from './byok.repo.ts'
import {
  BYOK_PROVIDER_SLUGS,
  MAX_ACCOUNT_CREDENTIALS,
  MAX_TOTAL_CREDENTIALS,
  type ByokKeyObject,
  type CreateByokBody,
  type UpdateByokBody,
} from './byok.schemas.ts'
import { maskSecret } from './byok-secrets.service.ts'
import { workspaceFor, workspaceOfKey } from './byok-workspace.service.ts'

/** The characters of a provider key its label shows before the dots (`sk-...AbCd`). */
const LABEL_HEAD = 3

const DOCUMENT_SLUGS = new Set(BYOK_PROVIDER_SLUGS)
const catalogSlugs = new WeakMap<Catalog, ReadonlySet<string>>()

/** A provider slug of the real document, or of an endpoint of the running catalog. */
export function isKnownProvider(ctx: EmulatorContext, slug: string): boolean {
  if (DOCUMENT_SLUGS.has(slug)) return true
  const catalog = ctx.services.catalog.get()
  let slugs = catalogSlugs.get(catalog)
  if (!slugs) catalogSlugs.set(catalog, (slugs = new Set(catalog.models.flatMap((m) => m.endpoints.map((e) => e.provider)))))
  return slugs.has(slug)
}

const list = (json: string | null): string[] | null => (json === null ? null : (JSON.parse(json) as string[]))
const listJson = (value: string[] | null | undefined, current: string | null): string | null =>
  value === undefined ? current : value === null ? null : JSON.stringify(value)
const flag = (value: boolean | undefined, current: 0 | 1): 0 | 1 => (value === undefined ? current : value ? 1 : 0)

export function byokView(row: ByokRow): ByokKeyObject {
  return {
    id: row.id,
    provider: row.provider,
    workspace_id: row.workspace_id,
    label: row.label,
    name: row.name,
    disabled: row.disabled === 1,
    is_fallback: row.is_fallback === 1,
    is_byok_only: row.is_byok_only === 1,
    is_required: row.is_required === 1,
    declared_zdr: row.declared_zdr === null ? null : row.declared_zdr === 1,
    allowed_models: list(row.allowed_models),
    allowed_api_key_hashes: list(row.allowed_api_key_hashes),
    allowed_user_ids: list(row.allowed_user_ids),
    sort_order: row.sort_order,
    created_at: toIso(row.created_at),
  }
}

/** The credential with this id in the caller's account; anything else (another account's, malformed) is a 404. */
export function requireCredential(repo: ByokRepo, account: AccountRow, id: string): ByokRow {
  const row = repo.get(id)
  if (!row || row.account_id !== account.id) throw credentialNotFound(id)
  return row
}

/** Every hash of an allow-list must be a key of the account, as the real service checks (a 400 naming it). */
export function checkAccountKeyHashes(ctx: EmulatorContext, account: AccountRow, hashes: readonly string[] | null | undefined, field: string): void {
  hashes?.forEach((hash, i) => {
    if (ctx.services.keys.byHash(hash)?.account_id !== account.id) throw notAnAccountKey(`${field}[${i}]`)
  })
}

/** A new credential's row; call inside the transaction that inserts it (its place among its provider's is read there). */
export function newCredentialRow(ctx: EmulatorContext, account: AccountRow, body: CreateByokBody): ByokRow {
  if (!isKnownProvider(ctx, body.provider)) throw unknownProvider('provider')
  checkAccountKeyHashes(ctx, account, body.allowed_api_key_hashes, 'allowed_api_key_hashes')
  const workspace_id = workspaceFor(ctx, account.id, body.workspace_id, 'workspace_id', 'body')
  if (ctx.services.byok.countStored(account.id) >= MAX_ACCOUNT_CREDENTIALS) throw tooManyCredentials('account', MAX_ACCOUNT_CREDENTIALS)
  if (ctx.services.byok.countStored(null) >= MAX_TOTAL_CREDENTIALS) throw tooManyCredentials('emulator', MAX_TOTAL_CREDENTIALS)
  return {
    id: ctx.ids.uuid(ctx.ids.next('byok')),
    account_id: account.id,
    workspace_id,
    provider: body.provider,
    name: body.name ?? null,
    label: maskSecret(body.key, LABEL_HEAD),
    disabled: flag(body.disabled, 0),
    is_fallback: flag(body.is_fallback, 0),
    is_byok_only: flag(body.is_byok_only, 0),
    is_required: flag(body.is_required, 0),
    declared_zdr: body.declared_zdr === undefined || body.declared_zdr === null ? null : body.declared_zdr ? 1 : 0,
    allowed_models: listJson(body.allowed_models, null),
    allowed_api_key_hashes: listJson(body.allowed_api_key_hashes, null),
    allowed_user_ids: listJson(body.allowed_user_ids, null),
    sort_order: ctx.services.byok.nextSortOrder({ account_id: account.id, workspace_id, provider: body.provider }),
    created_at: ctx.clock.now(),
    updated_at: null,
  }
}

/** A field left out keeps its value; lists are replaced, null clears one; a new key makes a new label. */
export function patchedCredentialRow(ctx: EmulatorContext, account: AccountRow, row: ByokRow, body: UpdateByokBody): ByokRow {
  checkAccountKeyHashes(ctx, account, body.allowed_api_key_hashes, 'allowed_api_key_hashes')
  return {
    ...row,
    name: body.name === undefined ? row.name : body.name,
    label: body.key === undefined ? row.label : maskSecret(body.key, LABEL_HEAD),
    disabled: flag(body.disabled, row.disabled),
    is_fallback: flag(body.is_fallback, row.is_fallback),
    is_byok_only: flag(body.is_byok_only, row.is_byok_only),
    is_required: flag(body.is_required, row.is_required),
    declared_zdr: body.declared_zdr === undefined ? row.declared_zdr : body.declared_zdr === null ? null : body.declared_zdr ? 1 : 0,
    allowed_models: listJson(body.allowed_models, row.allowed_models),
    allowed_api_key_hashes: listJson(body.allowed_api_key_hashes, row.allowed_api_key_hashes),
    allowed_user_ids: listJson(body.allowed_user_ids, row.allowed_user_ids),
    updated_at: ctx.clock.now(),
  }
}

/** Whether a credential may pay for this key's call of this model: each allow-list, where set, names it. */
function allows(row: ByokRow, key: KeyRow, model: ModelNames): boolean {
  const hashes = list(row.allowed_api_key_hashes)
  if (hashes && !hashes.includes(key.hash)) return false
  const users = list(row.allowed_user_ids)
  if (users && (key.creator_user_id === null || !users.includes(key.creator_user_id))) return false
  const models = list(row.allowed_models)
  return !models || modelNamedIn(models, model)
}

export interface ByokQuestion {
  key: KeyRow
  account: AccountRow
  /** The provider slug of the endpoint the call was routed to. */
  provider: string
  model: ModelNames
}

/**
 * Whether the call is paid with the caller's own provider key: its key's workspace holds an enabled
 * credential for the provider that allows this key, its member and the model. The ledger asks, once
 * the endpoint is chosen, inside its transaction.
 */
export function paysWithOwnKey(repo: ByokRepo, { key, account, provider, model }: ByokQuestion): boolean {
  const usable = repo.usable({ account_id: account.id, workspace_id: workspaceOfKey(key, account), provider })
  return usable.some((row) => allows(row, key, model))
}
