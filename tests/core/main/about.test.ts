import { describe, expect, it } from 'vitest'
import { aboutLines, aboutPanelOptions } from '../../../src/main/about'

const versions = { app: '0.1.0', electron: '39.2.0', chrome: '142.0.7444.52', node: '22.20.0' }

describe('the About panel', () => {
  it('names the app, Electron, Chromium and Node versions in the app’s language', () => {
    expect(aboutLines('ko', versions)).toEqual([
      'Appraisal Desk 버전 0.1.0',
      'Electron 39.2.0',
      'Chromium 142.0.7444.52',
      'Node.js 22.20.0',
    ])
    expect(aboutLines('en', versions)[0]).toBe('Appraisal Desk version 0.1.0')
    expect(aboutPanelOptions('en', versions)).toMatchObject({
      applicationVersion: '0.1.0',
      version: 'Electron 39.2.0 · Chromium 142.0.7444.52 · Node.js 22.20.0',
    })
  })
})
