/** A brand exactly as the service sends it (operation 3). */
export interface RawBrand {
  readonly idx: number
  readonly name: string
  readonly englishName: string
}
