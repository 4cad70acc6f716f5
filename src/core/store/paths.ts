import { join } from 'node:path'
import { PROFILE_ID_PATTERN } from '../../shared/profiles'
import { AppError } from '../app-error'

/**
 * Where a profile's files live. This module loads no `node:sqlite`: the
 * main thread computes paths here and leaves every SQLite file to the data
 * threads.
 */

/** The cache file of a profile: `<dataDir>/cache/<profileId>.sqlite`. */
export function storeFileFor(dataDir: string, profileId: string): string {
  // The id becomes a file name: only a safe alphabet, so it can never leave the folder.
  if (!PROFILE_ID_PATTERN.test(profileId)) {
    throw new AppError(
      'invalid_argument',
      'A profile id may contain only lowercase letters, digits, - and _.',
    )
  }
  return join(dataDir, 'cache', `${profileId}.sqlite`)
}
