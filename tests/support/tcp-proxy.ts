import { createServer, connect, type Server, type Socket } from 'node:net'

/**
 * A loopback TCP relay in front of the team cluster, so a test can cut one
 * client's network and restore it while the server keeps running. While cut,
 * open connections are destroyed and new ones are closed at once.
 */
export interface TcpProxy {
  readonly port: number
  cut(): void
  restore(): void
  close(): Promise<void>
}

/** Starts a relay on 127.0.0.1 to `targetPort`. */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>()
  let cut = false
  const server: Server = createServer((inbound) => {
    if (cut) {
      inbound.destroy()
      return
    }
    const outbound = connect(targetPort, '127.0.0.1')
    for (const socket of [inbound, outbound]) {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
      socket.on('error', () => {
        inbound.destroy()
        outbound.destroy()
      })
    }
    inbound.pipe(outbound)
    outbound.pipe(inbound)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('no proxy port')
  return {
    port: address.port,
    cut() {
      cut = true
      for (const socket of sockets) socket.destroy()
    },
    restore() {
      cut = false
    },
    close() {
      cut = true
      for (const socket of sockets) socket.destroy()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
