import type { IncomingMessage, ServerResponse } from 'node:http'
import type { WalletEnd, WalletVerdict } from '../core/wallet/flow-machine'
import type { WalletService } from '../core/wallet/wallet-service'

/**
 * The web host's half of a wallet-link flow: the browser popup.
 *
 * - `GET /wallet/open/<flowId>` is what the renderer opens. The renderer
 *   never sees the service's address (it holds the API key): the web host
 *   takes it from core once, requests it itself first — feeding each
 *   redirect and the page's status to the flow's state machine, so a
 *   redirect off the service, an HTTP error or an unreachable service end
 *   the flow `blocked` or `failed` — and then redirects the popup to it.
 * - `GET /wallet/return` is the built-in Sandbox profile's `redirectUri` in
 *   the web host: the service's final redirect lands here and is handed to
 *   the same state machine, which completes the flow.
 *
 * Residual risks, acceptable for a development and test host (the app's
 * Electron window has none of them): the popup's address bar shows the
 * address with the key; the service's first page is requested twice;
 * navigations inside the popup after that first page are not seen (only the
 * final return, a close, the timeout or Cancel end the flow); the popup
 * shares the browser's cookies; and a page served from another port of
 * this machine could still navigate to `/wallet/return` while a flow runs
 * (other sites are refused, {@link returnNavigationOk}).
 */

const MAX_HOPS = 5
const PREFLIGHT_TIMEOUT_MS = 15_000

const HEADERS = {
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
} as const

const WORDS: Record<WalletEnd['outcome'], string> = {
  completed: '지갑 연동이 완료되었습니다 / The wallet link is complete',
  cancelled: '지갑 연동이 취소되었습니다 / The wallet link was cancelled',
  timed_out: '시간이 초과되었습니다 / The wallet link timed out',
  blocked:
    '허용되지 않은 주소로 이동하려 해 중단했습니다 / Stopped: the page tried to leave the service',
  failed: '서비스 페이지를 열 수 없습니다 / The service’s page could not be opened',
}

/** A short page in the popup saying how the flow ended (the app shows the details). */
function endPage(res: ServerResponse, status: number, end: WalletEnd | null): void {
  const text = end
    ? WORDS[end.outcome]
    : '이 지갑 연동은 열려 있지 않습니다 / This wallet link is not open'
  const html = `<!doctype html><html lang="ko"><meta charset="utf-8"><title>지갑 연동 / Wallet link</title>
<body style="font-family:system-ui,sans-serif;margin:3rem auto;max-width:30rem"><h1 style="font-size:1.2rem">${text}</h1>
<p>이 창을 닫아도 됩니다 / You can close this window.</p></body></html>`
  res.writeHead(status, { ...HEADERS, 'Content-Length': Buffer.byteLength(html) })
  res.end(html)
}

/** A Chromium-like net error code for a failed request, so the reasons match the Electron window's. */
function netErrorCode(error: unknown): number {
  const text = String((error as { cause?: { code?: unknown } })?.cause?.code ?? error)
  if (/CERT|SSL|TLS/i.test(text)) return -202
  if (/Timeout|Abort/i.test(text)) return -118
  return -105
}

/** Requests the flow's address hop by hop, feeding the flow; answers the page to send the popup to, or the ending. */
async function preflight(
  wallet: WalletService,
  flowId: string,
  start: string,
): Promise<{ url: string } | { end: WalletEnd }> {
  let url = start
  for (let hop = 0; hop <= MAX_HOPS; hop += 1) {
    let response: Response
    try {
      response = await fetch(url, {
        redirect: 'manual',
        signal: AbortSignal.timeout(PREFLIGHT_TIMEOUT_MS),
      })
    } catch (error) {
      return settle(wallet.feed(flowId, { type: 'load-failed', code: netErrorCode(error) }))
    }
    await response.body?.cancel()
    const location = response.headers.get('location')
    if (response.status >= 300 && response.status < 400 && location) {
      const next = new URL(location, url).toString()
      const verdict = wallet.feed(flowId, { type: 'navigate', url: next, via: 'redirect' })
      if (verdict.action !== 'allow') return settle(verdict)
      url = next
      continue
    }
    const verdict = wallet.feed(flowId, { type: 'loaded', status: response.status })
    return verdict.ended ? { end: verdict.ended } : { url }
  }
  return settle(wallet.feed(flowId, { type: 'load-failed', code: -310 }))
}

function settle(verdict: WalletVerdict): { end: WalletEnd } {
  return {
    end: verdict.ended ?? { outcome: 'failed', reason: 'load-3', params: {} },
  }
}

/**
 * Whether a request to `/wallet/return` is the popup's own navigation: a
 * top-level navigation (`Sec-Fetch-Mode: navigate`) that stayed on this
 * machine's origins (`Sec-Fetch-Site` same-origin, or same-site: the Sandbox
 * service on another loopback port redirects here, and Fetch Metadata
 * compares sites without ports). A page on another site, or a script,
 * image or form of any page, cannot complete or cancel the flow. Browsers
 * that send no Fetch Metadata (and non-browser clients) are not refused on
 * that ground, as on the rest of this host.
 * https://developer.mozilla.org/en-US/docs/Web/HTTP/Reference/Headers/Sec-Fetch-Site
 */
function returnNavigationOk(req: Pick<IncomingMessage, 'headers'>): boolean {
  const site = req.headers['sec-fetch-site']
  const mode = req.headers['sec-fetch-mode']
  if (site !== undefined && site !== 'same-origin' && site !== 'same-site') return false
  return mode === undefined || mode === 'navigate'
}

/** Serves `/wallet/open/<flowId>` and `/wallet/return`; false for other paths. */
export async function handleWalletPopup(
  wallet: WalletService,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<boolean> {
  if (!path.startsWith('/wallet/')) return false
  if (req.method !== 'GET') {
    endPage(res, 405, null)
    return true
  }
  if (path === '/wallet/return') {
    if (!returnNavigationOk(req)) {
      endPage(res, 403, null)
      return true
    }
    const verdict = wallet.feedReturn(`http://${req.headers.host ?? ''}${req.url ?? ''}`)
    endPage(res, verdict?.ended ? 200 : 409, verdict?.ended ?? null)
    return true
  }
  const flowId = /^\/wallet\/open\/([0-9a-f-]{36})$/.exec(path)?.[1]
  const site = req.headers['sec-fetch-site']
  // Only the app's own page opens a flow (a popup it opened is same-origin).
  const start =
    flowId && (site === undefined || site === 'same-origin') ? wallet.takePopupUrl(flowId) : null
  if (!flowId || !start) {
    endPage(res, 404, null)
    return true
  }
  const answer = await preflight(wallet, flowId, start)
  if ('end' in answer) {
    endPage(res, 200, answer.end)
    return true
  }
  res.writeHead(302, {
    Location: answer.url,
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
  })
  res.end()
  return true
}
