/** The part of omggif (an independent GIF decoder, used only by tests) that the tests call. */
declare module 'omggif' {
  export class GifReader {
    constructor(buffer: Uint8Array)
    readonly width: number
    readonly height: number
    numFrames(): number
    loopCount(): number | null
    frameInfo(frame: number): { width: number; height: number; delay: number }
    decodeAndBlitFrameRGBA(frame: number, pixels: Uint8Array): void
  }
}
