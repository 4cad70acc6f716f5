import { describe, expect, it } from 'vitest'
import type { MessageBoxOptions, MessageBoxReturnValue } from 'electron'
import { createExternalLinkOpener, type ExternalLinkDeps } from '../../../src/main/external-links'

/**
 * The shell's link opener with fakes for Electron's `dialog.showMessageBox`
 * and `shell.openExternal` (typed against Electron's own .d.ts): what the
 * user is asked, what reaches the system browser, what is logged.
 */
function harness(answers: Partial<MessageBoxReturnValue>[] = [], locale: 'ko' | 'en' = 'en') {
  const asked: MessageBoxOptions[] = []
  const opened: string[] = []
  const logged: string[] = []
  const pending: Array<() => void> = []
  let hold = false
  const deps: ExternalLinkDeps = {
    showMessageBox: (options) => {
      asked.push(options)
      const answer = { response: 0, checkboxChecked: false, ...answers.shift() }
      if (!hold) return Promise.resolve(answer)
      return new Promise((resolve) => pending.push(() => resolve(answer)))
    },
    openExternal: (url) => {
      opened.push(url)
      return Promise.resolve()
    },
    origins: () => ['https://partner.good.example'],
    locale: () => locale,
    log: (message) => logged.push(message),
  }
  return {
    open: createExternalLinkOpener(deps),
    asked,
    opened,
    logged,
    holdDialogs: () => {
      hold = true
    },
    release: () => pending.splice(0).forEach((resolve) => resolve()),
  }
}

describe('external link opener (main)', () => {
  it('asks first, naming the host, and opens only after "Open"', async () => {
    const h = harness([{ response: 0 }])
    await expect(h.open('https://partner.good.example/help')).resolves.toBe('opened')
    expect(h.asked).toHaveLength(1)
    expect(h.asked[0]).toMatchObject({ type: 'question', buttons: ['Open', 'Cancel'], cancelId: 1 })
    expect(h.asked[0]?.message).toContain('partner.good.example')
    expect(h.opened).toEqual(['https://partner.good.example/help'])
  })

  it('opens nothing when the user cancels', async () => {
    const h = harness([{ response: 1 }])
    await expect(h.open('https://partner.good.example/help')).resolves.toBe('declined')
    expect(h.opened).toEqual([])
  })

  it('stops asking for a host after "don\'t ask again", for that host only', async () => {
    const h = harness([{ response: 0, checkboxChecked: true }])
    await h.open('https://partner.good.example/a')
    await expect(h.open('https://partner.good.example/b')).resolves.toBe('opened')
    expect(h.asked).toHaveLength(1)
    expect(h.opened).toEqual(['https://partner.good.example/a', 'https://partner.good.example/b'])
  })

  it('refuses a look-alike host with a message naming it, and never opens it', async () => {
    const h = harness()
    await expect(h.open('https://partner.good.example@evil.test/x?key=SECRET')).resolves.toBe(
      'refused',
    )
    expect(h.opened).toEqual([])
    expect(h.asked[0]).toMatchObject({ type: 'warning', buttons: ['OK'] })
    expect(h.asked[0]?.detail).toContain('evil.test')
    // The log names the host only: a URL may carry a key in its path or query.
    expect(h.logged.join('\n')).toContain('evil.test')
    expect(h.logged.join('\n')).not.toContain('SECRET')
  })

  it('refuses other schemes', async () => {
    const h = harness()
    for (const url of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'ms-msdt:/id x',
      'http://partner.good.example/',
    ]) {
      await expect(h.open(url)).resolves.toBe('refused')
    }
    expect(h.opened).toEqual([])
  })

  it('shows one dialog at a time: a window.open loop does not stack dialogs', async () => {
    const h = harness([{ response: 0 }])
    h.holdDialogs()
    const first = h.open('https://partner.good.example/1')
    const extra = await Promise.all(
      Array.from({ length: 20 }, (_, i) => h.open(`https://evil.test/${i}`)),
    )
    expect(extra.every((outcome) => outcome === 'busy')).toBe(true)
    h.release()
    await expect(first).resolves.toBe('opened')
    expect(h.asked).toHaveLength(1)
    expect(h.opened).toEqual(['https://partner.good.example/1'])
  })

  it('speaks the language it is given', async () => {
    const h = harness([{ response: 1 }], 'ko')
    await h.open('https://partner.good.example/')
    expect(h.asked[0]).toMatchObject({ buttons: ['열기', '취소'] })
    expect(h.asked[0]?.message).toContain('partner.good.example')
  })
})
