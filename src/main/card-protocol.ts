import { protocol } from 'electron'
import { readFile } from 'node:fs/promises'
import { cardHeaders, type CardResponse } from '../core/images/image-cache'
import { CARD_SCHEME } from './app-protocol'

/** What the protocol needs from core: the shared resolver of the image cache. */
export interface CardServer {
  serve(path: string, signal?: AbortSignal): Promise<CardResponse>
}

/**
 * Serves `card:` from the image cache. The path goes through the same
 * traversal-safe resolver as the web host's `/card/…` route; answers carry
 * the sniffed image type and `nosniff`, never a type a browser would run.
 */
export function handleCardProtocol(cards: CardServer): void {
  protocol.handle(CARD_SCHEME, async (request) => {
    const answer = await cards.serve(new URL(request.url).pathname, request.signal)
    if (!answer.ok) {
      return new Response(null, {
        status: answer.status,
        headers: { 'X-Content-Type-Options': 'nosniff' },
      })
    }
    try {
      return new Response(await readFile(answer.image.file), { headers: cardHeaders(answer.image) })
    } catch {
      return new Response(null, { status: 404, headers: { 'X-Content-Type-Options': 'nosniff' } })
    }
  })
}
