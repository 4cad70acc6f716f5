import type { ServerResponse } from 'node:http'
import { timingSafeEqual } from 'node:crypto'
import type { LiveDataset } from './live'
import type { Fault } from './faults'
import type { DemoCredentials } from './seed'

/**
 * The two wallet-link operations (4: pre-sync, 5: sync) as small HTML pages,
 * and the sandbox's index page. The spec shows neither their responses nor
 * whether `token` and `redirectUri` travel in the query string; the sandbox
 * takes them from the query string (the operations are GETs) and invents the
 * pages and the result parameters:
 *
 * - `…/pre-sync?redirectUri=U` and `…/sync/:idx?token=T&redirectUri=U`
 *   answer a page naming the member (and the guarantee), with "완료 /
 *   Complete" and "취소 / Cancel";
 * - Complete (`…/complete`) redirects (302) to `U` with `result=success`,
 *   `flow`, `refUserId`, `guaranteeIdx` (sync) and `linkedAt` added to its
 *   query; Cancel (`…/cancel`) shows a "cancelled" page whose link returns
 *   to `U` with `result=cancel`;
 * - a wrong partner or API key, an unknown guarantee, a wrong token, a
 *   guarantee of another member or a missing/unusable `redirectUri` answer
 *   an "invalid input" page with 400, 401 or 404.
 *
 * The member id picks the cases a real service has (see {@link walletCase}):
 * `login-…` asks for a login first (user `demo`, password `demo`, kept in a
 * cookie, so every fresh wallet session logs in again), `foreign-…`
 * redirects to a foreign origin, `error-…` answers HTTP 503, `noframe-…`
 * refuses to be framed (`X-Frame-Options: DENY`, `frame-ancestors 'none'`)
 * and `never-…` never completes.
 */

/** The page behaviour a member id selects, by its prefix. */
type WalletCase = 'normal' | 'login' | 'foreign' | 'error' | 'noframe' | 'never'

/** The case a member id selects: `login-`, `foreign-`, `error-`, `noframe-` or `never-` prefix. */
function walletCase(refUserId: string): WalletCase {
  const prefix = /^(login|foreign|error|noframe|never)-/i.exec(refUserId)?.[1]?.toLowerCase()
  return (prefix as WalletCase | undefined) ?? 'normal'
}

/**
 * Where a `foreign-…` member's page sends the window: an origin that is never the service.
 * @internal
 */
export const FOREIGN_WALLET_URL = 'https://wallet-partner.invalid/continue'

const LOGIN_COOKIE = 'sandbox_wallet_login'

function loggedIn(cookieHeader: string | undefined, refUserId: string): boolean {
  const wanted = `${LOGIN_COOKIE}=${encodeURIComponent(refUserId)}`
  return (cookieHeader ?? '').split(/;\s*/).includes(wanted)
}

const PATH =
  /^\/partner\/([^/]+)\/([^/]+)\/wallet\/([^/]+)\/(pre-sync|sync\/([^/]+))(?:\/(complete|cancel|login))?$/

/** HTML-escapes text for element content and quoted attributes. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

const STYLE = `body{font-family:system-ui,'Apple SD Gothic Neo','Malgun Gothic',sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#222}
h1{font-size:1.4rem}.card{border:1px solid #ddd;border-radius:8px;padding:1rem;margin:1rem 0}
a.button{display:inline-block;padding:.6rem 1.2rem;border-radius:6px;text-decoration:none;margin-right:.5rem}
.ok{background:#1a7f37;color:#fff}.cancel{background:#eee;color:#222}dt{font-weight:600}dd{margin:0 0 .5rem}
table{border-collapse:collapse;font-size:.85rem}td,th{border:1px solid #ddd;padding:.25rem .4rem;text-align:left}code{word-break:break-all}`

function page(title: string, body: string, imageOrigin?: string): string {
  return `<!doctype html><html lang="ko"><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'${imageOrigin ? `; img-src ${imageOrigin}` : ''}">
<title>${escapeHtml(title)}</title><style>${STYLE}</style><body>${body}</body></html>`
}

/** Sends an HTML page with a CSP that allows no script (images only from `imageOrigin`, if given). */
export function sendPage(
  res: ServerResponse,
  status: number,
  html: string,
  imageOrigin?: string,
  extraHeaders: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
    'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'${imageOrigin ? `; img-src ${imageOrigin}` : ''}`,
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    ...extraHeaders,
  })
  res.end(html)
}

function invalid(res: ServerResponse, status: number, reason: string): true {
  sendPage(
    res,
    status,
    page(
      '잘못된 요청 / Invalid request',
      `<h1>잘못된 요청입니다 / Invalid request</h1><p>${escapeHtml(reason)}</p>`,
    ),
  )
  return true
}

/** `redirectUri` when it is an absolute http(s) URL, else null. */
function usableRedirect(value: string | null): URL | null {
  if (!value) return null
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null
  } catch {
    return null
  }
}

/** `redirectUri` with the result parameters added (existing query parameters kept). */
function withResult(redirect: URL, params: Record<string, string>): string {
  const url = new URL(redirect)
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value)
  return url.toString()
}

/**
 * Answers operations 4 and 5 and their Complete/Cancel steps; returns false
 * when `url` is not a wallet path, so the caller can try other routes.
 */
export function handleWallet(
  live: LiveDataset,
  credentials: DemoCredentials,
  url: URL,
  res: ServerResponse,
  cookieHeader?: string,
): boolean {
  const match = PATH.exec(url.pathname)
  if (!match) return false
  let parts: string[]
  try {
    parts = match.slice(1).map((part) => (part === undefined ? '' : decodeURIComponent(part)))
  } catch {
    return invalid(res, 400, 'The address is not correctly encoded.')
  }
  const [partnerId = '', apiKey = '', refUserId = '', flowPart = '', idxText = '', step = ''] =
    parts
  const flow = flowPart === 'pre-sync' ? 'pre-sync' : 'sync'
  if (!same(apiKey, credentials.apiKey)) return invalid(res, 401, 'The API key is not valid.')
  if (partnerId !== credentials.partnerId) {
    return invalid(res, 401, 'This API key does not belong to that partner.')
  }
  if (refUserId.trim() === '') return invalid(res, 400, 'The member ID is empty.')
  const redirect = usableRedirect(url.searchParams.get('redirectUri'))
  if (!redirect) return invalid(res, 400, 'redirectUri is missing or is not an http(s) address.')

  let guaranteeIdx = 0
  let productName = ''
  let cardUrl = ''
  if (flow === 'sync') {
    guaranteeIdx = /^\d{1,7}$/.test(idxText) ? Number(idxText) : 0
    if (!live.exists('guarantee', guaranteeIdx - 1)) {
      return invalid(res, 404, `There is no guarantee ${idxText}.`)
    }
    const token = url.searchParams.get('token') ?? ''
    if (!token) return invalid(res, 400, 'token is missing.')
    if (!same(token, live.base.tokenFor(guaranteeIdx))) {
      return invalid(res, 400, 'The token does not match this guarantee.')
    }
    const guarantee = live.guarantee(guaranteeIdx - 1)
    if (guarantee.refUserId !== undefined && guarantee.refUserId !== refUserId) {
      return invalid(res, 400, 'This guarantee belongs to another member.')
    }
    productName = guarantee.productName
    cardUrl = guarantee.nftCardImg
  }

  const kind = walletCase(refUserId)
  const base = url.pathname.replace(/\/(complete|cancel|login)$/, '')
  if (kind === 'error') {
    sendPage(
      res,
      503,
      page(
        '일시적 오류 / Temporarily unavailable',
        '<h1>서비스를 잠시 사용할 수 없습니다 / Service temporarily unavailable</h1>',
      ),
    )
    return true
  }
  if (kind === 'foreign') {
    res.writeHead(302, { Location: FOREIGN_WALLET_URL, 'Cache-Control': 'no-store' })
    res.end()
    return true
  }
  if (kind === 'login' && step === 'login') {
    const query = new URLSearchParams(url.search)
    const ok = query.get('user') === 'demo' && query.get('password') === 'demo'
    query.delete('user')
    query.delete('password')
    if (!ok) return loginPage(res, base, query, true)
    res.writeHead(302, {
      Location: `${base}?${query.toString()}`,
      'Set-Cookie': `${LOGIN_COOKIE}=${encodeURIComponent(refUserId)}; Path=/; HttpOnly; SameSite=Lax`,
      'Cache-Control': 'no-store',
    })
    res.end()
    return true
  }
  if (kind === 'login' && !loggedIn(cookieHeader, refUserId)) {
    return loginPage(res, base, new URLSearchParams(url.search), false)
  }

  const result = {
    flow,
    refUserId,
    ...(flow === 'sync' ? { guaranteeIdx: String(guaranteeIdx) } : {}),
  }
  if (step === 'complete' && kind !== 'never') {
    res.writeHead(302, {
      Location: withResult(redirect, {
        result: 'success',
        ...result,
        linkedAt: new Date().toISOString(),
      }),
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
    })
    res.end()
    return true
  }
  if (step === 'cancel') {
    const back = withResult(redirect, { result: 'cancel', ...result })
    sendPage(
      res,
      200,
      page(
        '연결 취소 / Link cancelled',
        `<h1>지갑 연결이 취소되었습니다 / Wallet link cancelled</h1>
<p><a class="button cancel" href="${escapeHtml(back)}">돌아가기 / Return</a></p>`,
      ),
    )
    return true
  }

  const query = url.search
  const member = `<dt>회원 / Member</dt><dd><code>${escapeHtml(refUserId)}</code></dd>`
  const detail =
    flow === 'sync'
      ? `${member}<dt>보증서 / Guarantee</dt><dd>#${guaranteeIdx} ${escapeHtml(productName)}</dd>
<dd><img src="${escapeHtml(cardUrl)}" width="320" height="200" alt="card"></dd>`
      : member
  const title =
    flow === 'sync' ? '보증서 지갑 연동 / Sync guarantee to wallet' : '지갑 연결 / Link wallet'
  const actions =
    kind === 'never'
      ? `<p>연결을 준비하고 있습니다… / Preparing the link…</p>`
      : `<p><a class="button ok" href="${escapeHtml(`${base}/complete${query}`)}">완료 / Complete</a>
<a class="button cancel" href="${escapeHtml(`${base}/cancel${query}`)}">취소 / Cancel</a></p>`
  sendPage(
    res,
    200,
    page(
      title,
      `<h1>${title}</h1><div class="card"><dl>${detail}</dl></div>${actions}`,
      flow === 'sync' ? live.base.staticUrl : undefined,
    ),
    flow === 'sync' ? live.base.staticUrl : undefined,
    kind === 'noframe'
      ? {
          'X-Frame-Options': 'DENY',
          'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'${flow === 'sync' ? `; img-src ${live.base.staticUrl}` : ''}`,
        }
      : {},
  )
  return true
}

/** The `login-…` case's login form (GET, carrying the flow's query on). */
function loginPage(
  res: ServerResponse,
  base: string,
  query: URLSearchParams,
  failed: boolean,
): true {
  const hidden = [...query]
    .map(
      ([name, value]) =>
        `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`,
    )
    .join('')
  sendPage(
    res,
    200,
    page(
      '로그인 / Sign in',
      `<h1>지갑 서비스 로그인 / Sign in to the wallet service</h1>
${failed ? '<p role="alert">아이디 또는 비밀번호가 틀렸습니다 / Wrong user or password</p>' : ''}
<form method="get" action="${escapeHtml(`${base}/login`)}">${hidden}
<p><label>아이디 / User <input name="user" autocomplete="username"></label></p>
<p><label>비밀번호 / Password <input name="password" type="password" autocomplete="current-password"></label></p>
<p><button class="button ok" type="submit">로그인 / Sign in</button></p></form>`,
    ),
  )
  return true
}

/** The sandbox's index page: demo credentials, a few guarantees with their tokens, the faults in force. */
export function renderIndex(
  live: LiveDataset,
  credentials: DemoCredentials,
  faults: readonly Fault[],
): string {
  const redirect = 'http://127.0.0.1/wallet-done'
  const rows: string[] = []
  const dataset = live.base
  const count = live.count('guarantee')
  for (let i = count - 1; i >= 0 && rows.length < 20; i -= 1) {
    if (!live.exists('guarantee', i)) continue
    const g = live.guarantee(i)
    const member = g.refUserId ?? dataset.memberId(i % dataset.members)
    const walletBase = `/partner/${encodeURIComponent(credentials.partnerId)}/${encodeURIComponent(credentials.apiKey)}/wallet/${encodeURIComponent(member)}`
    const sync = `${walletBase}/sync/${g.idx}?token=${encodeURIComponent(dataset.tokenFor(g.idx))}&redirectUri=${encodeURIComponent(redirect)}`
    rows.push(
      `<tr><td>${g.idx}</td><td>${escapeHtml(g.status)}</td><td>${escapeHtml(g.refUserId ?? '—')}</td><td>${escapeHtml(g.productName)}</td><td><code>${dataset.tokenFor(g.idx)}</code></td><td><a href="${escapeHtml(sync)}">sync</a> · <a href="${escapeHtml(`${walletBase}/pre-sync?redirectUri=${encodeURIComponent(redirect)}`)}">pre-sync</a></td></tr>`,
    )
  }
  return page(
    'Appraisal Desk sandbox',
    `<h1>Appraisal Desk sandbox</h1>
<p>Seed ${dataset.seed}, ${count} guarantees and ${live.count('inspection')} inspections. Card images: <code>${escapeHtml(dataset.staticUrl)}</code>.</p>
<h2>Demo credentials</h2>
<dl><dt>partnerId</dt><dd><code>${escapeHtml(credentials.partnerId)}</code></dd><dt>API key</dt><dd><code>${escapeHtml(credentials.apiKey)}</code></dd><dt>API secret</dt><dd><code>${escapeHtml(credentials.apiSecret)}</code></dd></dl>
<h2>Newest guarantees and their guaranteeToken</h2>
<p>The token comes from a detail operation the spec does not list; here it is. Any other token: <code>sandbox.tokenFor(idx)</code>.</p>
<table><tr><th>idx</th><th>status</th><th>refUserId</th><th>productName</th><th>guaranteeToken</th><th>wallet</th></tr>${rows.join('')}</table>
<h2>Faults in force</h2>
<p>${faults.length === 0 ? 'None.' : `<code>${escapeHtml(JSON.stringify(faults))}</code>`}</p>`,
  )
}
