// The inspector speaks to the emulator only over HTTP, through the admin API of the page's own origin
// (the emulator serves this UI), so the same build works in a browser and in the window. It reads
// nothing through the gateway: no key of its own, nothing journaled, no fault in its way.
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

/** The admin API: answers are `{data: ...}` envelopes unless said otherwise. */
export const admin = {
  get: <T>(path: string) => call<T>('GET', `${ADMIN}${path}`),
  post: <T>(path: string, body?: unknown) => call<T>('POST', `${ADMIN}${path}`, body ?? {}),
  put: <T>(path: string, body: unknown) => call<T>('PUT', `${ADMIN}${path}`, body),
  patch: <T>(path: string, body: unknown) => call<T>('PATCH', `${ADMIN}${path}`, body),
  del: <T>(path: string) => call<T>('DELETE', `${ADMIN}${path}`),
}

export const origin = (): string => window.location.origin

// The admin API's shapes, declared once in the emulator (type-only: nothing of it is bundled here).
export type {
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
  JournalSummary,
  Member,
  Page,
  RecordingsList,
  RecordingView,
  StreamEvents,
  VideoTask,
  VideoTaskState,
} from '../../emulator/admin/types.ts'
