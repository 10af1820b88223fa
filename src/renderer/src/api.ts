// The inspector speaks to the emulator only over HTTP, through the admin API of the page's own origin
// (the emulator serves this UI), so the same build works in a browser and in the window. It reads
// nothing through the gateway: no key of its own, nothing journaled, no fault in its way.
import type {
  Account,
  AccountByokKey,
  AccountDestination,
  AccountDetail,
  AccountGuardrail,
  AccountPreset,
  AccountWorkspace,
  ActivityRow,
  AdminKey,
  CallbackDelivery,
  CatalogDocument,
  Charge,
  ChatFixture,
  ChatFixtureInput,
  ChatFixturePatch,
  ChatFixtureTest,
  ChatFixtureTestInput,
  ClockState,
  Envelope,
  FaultPreset,
  FaultRule,
  JournalEntry,
  Page,
  RecordingsList,
  VideoTask,
} from '../../emulator/admin/types.ts'

export const ADMIN = '/_emulator/api'

export class ApiError extends Error {
  readonly status: number
  readonly body: unknown
  constructor(status: number, message: string, body: unknown) {
    super(message)
    this.status = status
    this.body = body
  }
}

async function call<T>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  })
  const text = await res.text()
  const parsed: unknown = text ? JSON.parse(text) : undefined
  if (!res.ok) {
    const message =
      (parsed as { error?: { message?: string }; message?: string } | undefined)?.error?.message ??
      (parsed as { message?: string } | undefined)?.message ??
      res.statusText
    throw new ApiError(res.status, message, parsed)
  }
  return parsed as T
}

const get = <T>(path: string) => call<T>('GET', `${ADMIN}${path}`)
const post = <T>(path: string, body?: unknown) => call<T>('POST', `${ADMIN}${path}`, body ?? {})
const patch = <T>(path: string, body: unknown) => call<T>('PATCH', `${ADMIN}${path}`, body)
const del = <T>(path: string) => call<T>('DELETE', `${ADMIN}${path}`)

/** An id as one path segment. */
const seg = encodeURIComponent
const unwrap = <T>({ data }: { data: T }): T => data
const accountPath = (accountId: string) => `/accounts/${seg(accountId)}`

/** An account's lists a client manages through the gateway, as the Data view shows them (management.ts names the areas). */
const MANAGEMENT_PATHS = {
  workspaces: 'workspaces',
  byok: 'byok',
  presets: 'presets',
  observability: 'observability/destinations',
} as const
export interface ManagementLists {
  workspaces: AccountWorkspace
  byok: AccountByokKey
  presets: AccountPreset
  observability: AccountDestination
}

/** The OpenAPI document's operations (the inspector reads their ids). */
export interface OpenApiDocument {
  paths?: Record<string, Record<string, { operationId?: string } | undefined>>
}

export type VideoTaskAction = 'advance' | 'succeed' | 'fail'
export type ClockMove = { by: string } | { to: string }

/**
 * The admin API, one entry per resource: its paths are written here and nowhere else, each call typed
 * with what it answers (the `{data}` envelope taken off where the caller only wants what is inside).
 * The query hooks (queries.ts, features/<view>/queries.ts) read through this; so do the mutations.
 */
export const api = {
  accounts: {
    list: () => get<Envelope<Account[]>>('/accounts').then(unwrap),
    /** One account with its members. */
    get: (id: string) => get<Envelope<AccountDetail>>(accountPath(id)).then(unwrap),
    /** A new account, with a standard and a management key. */
    create: () => post<Envelope<Account>>('/accounts', {}),
  },
  keys: {
    list: (accountId: string) => get<Envelope<AdminKey[]>>(`${accountPath(accountId)}/keys`).then(unwrap),
  },
  guardrails: {
    list: (accountId: string) => get<Page<AccountGuardrail>>(`${accountPath(accountId)}/guardrails`).then(unwrap),
  },
  /** Workspaces, BYOK credentials, presets and observability destinations. */
  management: {
    list: <A extends keyof ManagementLists>(area: A, accountId: string) =>
      get<Page<ManagementLists[A]>>(`${accountPath(accountId)}/${MANAGEMENT_PATHS[area]}`).then(unwrap),
  },
  activity: {
    list: (accountId: string) => get<Envelope<ActivityRow[]>>(`${accountPath(accountId)}/activity`).then(unwrap),
  },
  charges: {
    list: (accountId: string) => get<Envelope<Charge[]>>(`/charges?account=${seg(accountId)}`).then(unwrap),
    settle: (id: string, action: 'confirm' | 'expire') => post(`/charges/${seg(id)}/${action}`),
  },
  clock: {
    get: () => get<Envelope<ClockState>>('/clock').then(unwrap),
    /** Forward by a duration (`1h`, `1d`) or to a time, running what falls due on the way. */
    advance: (move: ClockMove) => post<Envelope<ClockState>>('/clock/advance', move).then(unwrap),
    freeze: () => post<Envelope<ClockState>>('/clock/freeze', {}).then(unwrap),
    resume: () => post<Envelope<ClockState>>('/clock/resume', {}).then(unwrap),
  },
  catalog: {
    /** The running catalog, whole: every model with its prices, modalities and endpoints. */
    get: () => get<Envelope<CatalogDocument>>('/catalog').then(unwrap),
  },
  openapi: {
    get: () => get<OpenApiDocument>('/openapi.json'),
  },
  faults: {
    list: () => get<Envelope<FaultRule[]>>('/faults').then(unwrap),
    get: (id: string) => get<Envelope<FaultRule>>(`/faults/${seg(id)}`).then(unwrap),
    create: (body: Record<string, unknown>) => post<Envelope<FaultRule>>('/faults', body).then(unwrap),
    update: (id: string, body: Record<string, unknown>) => patch<Envelope<FaultRule>>(`/faults/${seg(id)}`, body).then(unwrap),
    setEnabled: (id: string, enabled: boolean) => post<Envelope<FaultRule>>(`/faults/${seg(id)}/${enabled ? 'enable' : 'disable'}`),
    remove: (id: string) => del(`/faults/${seg(id)}`),
    presets: () => get<Envelope<FaultPreset[]>>('/faults/presets').then(unwrap),
    applyPreset: (preset: string, body: Record<string, unknown>) => post<Envelope<FaultRule>>(`/faults/presets/${preset}`, body).then(unwrap),
  },
  chatFixtures: {
    list: (accountId: string) => get<Envelope<ChatFixture[]>>(`${accountPath(accountId)}/chat-fixtures`).then(unwrap),
    create: (accountId: string, body: ChatFixtureInput) => post<Envelope<ChatFixture>>(`${accountPath(accountId)}/chat-fixtures`, body).then(unwrap),
    update: (id: string, body: ChatFixturePatch) => patch<Envelope<ChatFixture>>(`/chat-fixtures/${seg(id)}`, body).then(unwrap),
    remove: (id: string) => del(`/chat-fixtures/${seg(id)}`),
    clear: (accountId: string) => del(`${accountPath(accountId)}/chat-fixtures`),
    /** Which fixture would answer a request, changing nothing. */
    test: (accountId: string, body: ChatFixtureTestInput) => post<Envelope<ChatFixtureTest>>(`${accountPath(accountId)}/chat-fixtures/test`, body).then(unwrap),
  },
  journal: {
    /** The newest entries, whole (headers and bodies). */
    page: (limit: number) => get<Page<JournalEntry>>(`/journal?limit=${limit}`),
    get: (id: number) => get<Envelope<JournalEntry>>(`/journal/${id}`).then(unwrap),
    clear: () => del('/journal'),
  },
  recordings: {
    list: () => get<RecordingsList>('/recordings'),
    /** The list as the folder holds it once read again. */
    reload: () => post<RecordingsList>('/recordings/reload'),
  },
  video: {
    tasks: (limit: number) => get<Page<VideoTask>>(`/video/tasks?limit=${limit}`),
    act: (id: string, action: VideoTaskAction, body: { err_code?: string } = {}) => post(`/video/tasks/${id}/${action}`, body),
  },
  callbacks: {
    list: (taskId: string) => get<Envelope<CallbackDelivery[]>>(`/callbacks?task_id=${seg(taskId)}`).then(unwrap),
    redeliver: (id: string) => post(`/callbacks/${seg(id)}/redeliver`),
  },
  /** The whole state: seed presets, reset, export (a download link) and import. */
  state: {
    seed: (preset: string) => post('/fixtures/seed', { preset }),
    reset: () => post('/reset'),
    exportUrl: `${ADMIN}/export`,
    import: (document: unknown) => post<Envelope<{ tables: Record<string, number> }>>('/import', document).then(unwrap),
  },
}

export const origin = (): string => window.location.origin

// The admin API's shapes, declared once in the emulator (type-only: nothing of it is bundled here).
export type * from '../../emulator/admin/types.ts'
