import type { ErrorCode, ErrorData, ErrorReason } from '../shared/errors'

/**
 * The one error class core throws. It carries a code from the closed union;
 * the router turns it into `{ ok: false, error }` because Electron drops
 * custom error classes across `invoke` (electron/electron#24427).
 */
export class AppError extends Error {
  readonly code: ErrorCode
  readonly status: number | undefined
  readonly retryAt: string | undefined
  /** Why, for the renderer's words (`ErrorData.reason`). */
  readonly reason: ErrorReason | undefined
  readonly values: Readonly<Record<string, string | number>> | undefined

  constructor(
    code: ErrorCode,
    message: string,
    options: {
      status?: number
      retryAt?: string
      reason?: ErrorReason
      values?: Readonly<Record<string, string | number>>
      cause?: unknown
    } = {},
  ) {
    super(message, { cause: options.cause })
    this.name = 'AppError'
    this.code = code
    this.status = options.status
    this.retryAt = options.retryAt
    this.reason = options.reason
    this.values = options.values
  }

  /** The error an {@link ErrorData} (from another thread, or stored) stands for. */
  static fromData(data: ErrorData): AppError {
    return new AppError(data.code, data.message, {
      ...(data.status === undefined ? {} : { status: data.status }),
      ...(data.retryAt === undefined ? {} : { retryAt: data.retryAt }),
      ...(data.reason === undefined ? {} : { reason: data.reason }),
      ...(data.values === undefined ? {} : { values: data.values }),
    })
  }

  /** The plain-data form sent over IPC. */
  toData(): ErrorData {
    return {
      code: this.code,
      message: this.message,
      ...(this.status === undefined ? {} : { status: this.status }),
      ...(this.retryAt === undefined ? {} : { retryAt: this.retryAt }),
      ...(this.reason === undefined ? {} : { reason: this.reason }),
      ...(this.values === undefined ? {} : { values: this.values }),
    }
  }
}

/** True for an {@link AppError}, optionally of one code. */
export function isAppError(value: unknown, code?: ErrorCode): value is AppError {
  return value instanceof AppError && (code === undefined || value.code === code)
}
