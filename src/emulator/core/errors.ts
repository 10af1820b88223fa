// One error type for every failure a client can cause. Thrown anywhere, rendered once by the error
// handler in the envelope of the API the request was made to.

export type ErrorMetadata = Record<string, unknown>

export class ApiError extends Error {
  readonly status: number
  readonly metadata: ErrorMetadata | undefined
  readonly headers: Record<string, string>
  /** For the video router's envelope: FieldInvalid, TaskNotFound, ... */
  readonly reason: string | undefined
  /**
   * The emulator's own explanation, where the API's message must stay the vendor's fixed words
   * (`invalid field: model`): sent as the X-Emulator-Detail header, so the journal and the inspector show it.
   */
  readonly detail: string | undefined

  constructor(status: number, message: string, options: { metadata?: ErrorMetadata; headers?: Record<string, string>; reason?: string; detail?: string } = {}) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.metadata = options.metadata
    this.headers = options.headers ?? {}
    this.reason = options.reason
    this.detail = options.detail
  }
}

/** The video router's reason (its error table's err_code) for a status that carries none of its own. */
export const ROUTER_REASON: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  402: 'CreditInsufficient',
  403: 'Forbidden',
  404: 'NotFound',
  408: 'Canceled',
  409: 'Conflict',
  413: 'RequestTooLarge',
  429: 'TooManyRequests',
  500: 'InternalServiceFailure',
  502: 'BadGateway',
  503: 'ServiceUnavailable',
  504: 'GatewayTimeout',
}

/** A 400 about one body field, shaped like the schema validator's: "Field `amount` must be > 0". */
export const fieldError = (field: string, issue: string, location = 'body'): ApiError =>
  new ApiError(400, `${location === 'querystring' ? 'Query parameter' : 'Field'} \`${field}\` ${issue}`, { metadata: { field, location, issue } })

export const notFound = (message = 'Not Found'): ApiError => new ApiError(404, message)

/** Main API envelope: {"error":{"code":<status>,"message":"...","metadata"?:{...}}}. */
export function mainEnvelope(error: ApiError): { error: { code: number; message: string; metadata?: ErrorMetadata } } {
  return {
    error: { code: error.status, message: error.message, ...(error.metadata ? { metadata: error.metadata } : {}) },
  }
}
