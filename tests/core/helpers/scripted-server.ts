import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One scripted answer. */
export type Step = (req: IncomingMessage, res: ServerResponse) => void

/** A node:http server on 127.0.0.1 answering the n-th request with the n-th step (the last repeats). */
export interface ScriptedServer {
  readonly url: string
  /** Requests received, with their headers. */
  readonly requests: { url: string; headers: IncomingMessage['headers'] }[]
  close(): Promise<void>
}

/** Starts a server that plays `steps` in order. */
export async function scriptedServer(steps: Step[]): Promise<ScriptedServer> {
  const requests: ScriptedServer['requests'] = []
  const server = createServer((req, res) => {
    requests.push({ url: req.url ?? '', headers: req.headers })
    const step = steps[Math.min(requests.length, steps.length) - 1]
    step?.(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/** Answers JSON with a status. */
export const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Step =>
  (_req, res) => {
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers })
    res.end(JSON.stringify(body))
  }

/** An nginx-style HTML error page. */
export const html =
  (status: number): Step =>
  (_req, res) => {
    res.writeHead(status, { 'Content-Type': 'text/html' })
    res.end(
      `<html><head><title>${status} Bad Gateway</title></head><body><h1>${status}</h1></body></html>`,
    )
  }

/** Declares the full length, writes half of the body, then kills the socket. */
export const truncated =
  (body: unknown): Step =>
  (_req, res) => {
    const text = JSON.stringify(body)
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(text),
    })
    res.write(text.slice(0, Math.floor(text.length / 2)))
    setTimeout(() => res.socket?.destroy(), 10)
  }

/** Never answers (headers never come). */
export const silent: Step = () => undefined

/** A valid empty page envelope. */
export const emptyPage = { total: 0, page: 1, data: [] }
