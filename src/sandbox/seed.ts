import { createHash } from 'node:crypto'

/** A small, fast integer hash mixing three numbers into 32 bits. */
export function mix(a: number, b: number, c: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h ^ b, 0xc2b2ae35)
  h ^= h >>> 16
  h = Math.imul(h ^ c, 0x27d4eb2f)
  h ^= h >>> 15
  return h >>> 0
}

/** mulberry32: a small, fast, seedable PRNG; the same seed gives the same sequence. */
export function createRng(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Hex digest of `key`, cut to `length` characters. */
export function hexOf(key: string, length: number): string {
  return createHash('sha256').update(key).digest('hex').slice(0, length)
}

/** The demo partner of a seed: the same seed always gives the same credentials. */
export interface DemoCredentials {
  readonly partnerId: string
  readonly apiKey: string
  readonly apiSecret: string
}

/** Derives the demo partner ID, API key and secret from the seed. */
export function demoCredentials(seed: number): DemoCredentials {
  return {
    partnerId: `demo-shop-${String(seed).padStart(4, '0')}`,
    apiKey: `sbx_key_${hexOf(`api-key:${seed}`, 24)}`,
    apiSecret: `sbx_secret_${hexOf(`api-secret:${seed}`, 40)}`,
  }
}
