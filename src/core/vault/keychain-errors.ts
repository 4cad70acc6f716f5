import { AppError } from '../app-error'

/** How long one keychain call may take before it counts as locked (an unlock prompt nobody answers). */
export const KEYCHAIN_TIMEOUT_MS = 10_000

/** What a keychain failure means for the user. */
export type KeychainFailure = 'unavailable' | 'locked' | 'too_large' | 'undecryptable' | 'unknown'

/**
 * Classifies an error thrown by keytar from its message, which is all the
 * library gives (no codes). The strings are the ones the OS libraries report:
 * libsecret / GNOME Keyring on Linux, Security.framework on macOS, the
 * Credential Manager on Windows.
 */
export function classifyKeychainError(error: unknown): KeychainFailure {
  const message = error instanceof Error ? error.message : String(error)
  if (
    /locked collection|locked object|is locked|prompt.*(dismiss|cancel)|dismissed|cancel+ed|user interaction is not allowed|passphrase you entered is not correct|authorization.*denied|access.*denied/i.test(
      message,
    )
  ) {
    return 'locked'
  }
  if (/stub received bad data|too (long|large)|blob/i.test(message)) return 'too_large'
  if (/decrypt|could not be decoded|cannot be retrieved|bad decrypt|corrupt/i.test(message)) {
    return 'undecryptable'
  }
  if (
    /d-?bus|autolaunch|org\.freedesktop\.secrets|secret service|no such (file|interface|object)|object does not exist|could not connect|was not provided by any|keychain could not be found|no keychain|cannot find module|keytar\.node|not available/i.test(
      message,
    )
  ) {
    return 'unavailable'
  }
  return 'unknown'
}

/** The fix to name for a missing keychain on this OS. */
function unavailableHint(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') {
    return 'Open Keychain Access and make sure your login keychain exists and is unlocked.'
  }
  if (platform === 'win32') {
    return 'Make sure the Windows Credential Manager service is running.'
  }
  return 'Install and unlock a Secret Service keyring (GNOME Keyring or KWallet), then try again.'
}

/** The fix to name for a locked keychain on this OS. */
function lockedHint(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin')
    return 'Unlock your login keychain (Keychain Access), then press Retry.'
  if (platform === 'win32')
    return 'Sign in to Windows again to unlock Credential Manager, then press Retry.'
  return 'Unlock your keyring (GNOME Keyring or KWallet), then press Retry.'
}

/**
 * Turns a keytar failure into an {@link AppError} whose message names the fix.
 * The OS's own wording is appended (it never contains the secret: keytar
 * errors describe the keychain, not the value).
 */
export function toKeychainError(
  error: unknown,
  platform: NodeJS.Platform = process.platform,
): AppError {
  if (error instanceof AppError) return error
  const detail = (error instanceof Error ? error.message : String(error)).slice(0, 200)
  switch (classifyKeychainError(error)) {
    case 'locked':
      return new AppError(
        'keychain_locked',
        `The keychain is locked or access was refused. ${lockedHint(platform)} (${detail})`,
        { cause: error },
      )
    case 'too_large':
      return new AppError(
        'too_large',
        `The keychain refused the entry as too large. ${SIZE_HINT} (${detail})`,
        { cause: error },
      )
    case 'undecryptable':
    case 'unknown':
      // Never taken for "nothing stored": a caller that deletes or reads reports it as a failure.
      return new AppError(
        'keychain_unavailable',
        `The keychain failed with an error the app does not recognise; nothing was changed. ${unavailableHint(platform)} (${detail})`,
        { cause: error },
      )
    case 'unavailable':
      return new AppError(
        'keychain_unavailable',
        `No OS keychain is reachable. ${unavailableHint(platform)} You can also use the key for this session only. (${detail})`,
        { cause: error },
      )
  }
}

/** What to do about an entry over the size guard. */
export const SIZE_HINT =
  'Windows keeps at most 2560 bytes per entry; check that only the API key and secret were pasted.'

/**
 * Runs one keychain call with a deadline. A locked keychain may show an
 * unlock prompt and wait for it indefinitely (docs/faults.md F19); after the
 * deadline the call is reported as locked, with a Retry. The native call
 * itself cannot be cancelled and simply finishes in the background.
 */
export async function withKeychainTimeout<T>(
  call: Promise<T>,
  timeoutMs: number = KEYCHAIN_TIMEOUT_MS,
  platform: NodeJS.Platform = process.platform,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(
        new AppError(
          'keychain_locked',
          `The keychain did not answer within ${Math.round(timeoutMs / 1000)} s; it may be waiting for you to unlock it. ${lockedHint(platform)}`,
        ),
      )
    }, timeoutMs)
  })
  try {
    return await Promise.race([call, deadline])
  } finally {
    clearTimeout(timer)
  }
}
