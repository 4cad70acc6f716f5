import { describe, expect, it } from 'vitest'
import { debuggingSwitches, refusedAtStart } from '../../../src/core/security/debug-switches'

describe('debugging switches at start', () => {
  it.each([
    [['--remote-debugging-port=9222'], ['remote-debugging-port']],
    [['--remote-debugging-pipe'], ['remote-debugging-pipe']],
    [['--inspect'], ['inspect']],
    [['--inspect-brk=0.0.0.0:9229'], ['inspect-brk']],
    [['--inspect-port', '9229'], ['inspect-port']],
    [['--js-flags=--allow-natives-syntax'], ['js-flags']],
    [['-remote-debugging-port=9222'], ['remote-debugging-port']],
    [['--ignore-certificate-errors'], ['ignore-certificate-errors']],
    [
      ['--disable-web-security', '--inspect', '--inspect'],
      ['disable-web-security', 'inspect'],
    ],
  ])('%j is refused as %j', (argv, names) => {
    expect(debuggingSwitches(argv, 'linux')).toEqual(names)
  })

  it('reads them as Chromium does on Windows: a slash and any case', () => {
    expect(debuggingSwitches(['/Remote-Debugging-Port=9222', '--INSPECT'], 'win32')).toEqual([
      'remote-debugging-port',
      'inspect',
    ])
    // Elsewhere a slash starts a path, and switch names are case-sensitive.
    expect(debuggingSwitches(['/remote-debugging-port=9222', '--INSPECT'], 'linux')).toEqual([])
  })

  it('leaves ordinary arguments alone, and everything after a lone --', () => {
    expect(
      debuggingSwitches(
        ['.', '--no-sandbox', '--lang=ko', 'inspect', '--inspection-report', '--', '--inspect'],
        'linux',
      ),
    ).toEqual([])
  })

  it('a packaged app refuses them with a log line naming them; a development run does not', () => {
    const argv = ['--remote-debugging-port=9222', '--js-flags=--expose-gc']
    expect(refusedAtStart({ packaged: true, argv, platform: 'linux' })).toBe(
      '[security] refusing to start: debugging or checking switches on the command line (--remote-debugging-port, --js-flags); start the app without them',
    )
    expect(refusedAtStart({ packaged: false, argv, platform: 'linux' })).toBeNull()
    expect(refusedAtStart({ packaged: true, argv: ['--lang=ko'], platform: 'linux' })).toBeNull()
  })
})
