import { mkdir, open, readdir, rename, rm, unlink } from 'node:fs/promises'
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../fs-private'

/** A file being written. */
export interface WritableFile {
  write(chunk: Uint8Array): Promise<void>
  close(): Promise<void>
}

/** The file operations of the image cache; tests inject failures (ENOSPC, EIO) through it. */
export interface ImageFs {
  mkdir(path: string): Promise<void>
  /** Creates a new file; fails if it exists. */
  create(path: string): Promise<WritableFile>
  rename(from: string, to: string): Promise<void>
  unlink(path: string): Promise<void>
  /** Removes a folder's contents (leftover temp files after a crash). */
  clear(path: string): Promise<void>
}

/** The real file system. */
export const nodeImageFs: ImageFs = {
  async mkdir(path) {
    await mkdir(path, { recursive: true, mode: PRIVATE_DIR_MODE })
  },
  async create(path) {
    const handle = await open(path, 'wx', PRIVATE_FILE_MODE)
    return {
      async write(chunk) {
        let offset = 0
        while (offset < chunk.byteLength) {
          const { bytesWritten } = await handle.write(chunk, offset)
          offset += bytesWritten
        }
      },
      close: () => handle.close(),
    }
  },
  rename,
  unlink,
  async clear(path) {
    for (const name of await readdir(path).catch(() => [] as string[])) {
      await rm(`${path}/${name}`, { force: true, recursive: true })
    }
  },
}
