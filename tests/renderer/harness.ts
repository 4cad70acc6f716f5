import { render } from '@testing-library/svelte'
import type { Component } from 'svelte'
import type { Client } from '../../src/renderer/src/lib/client'
import type { Locale } from '../../src/renderer/src/lib/i18n.svelte'
import type { TeamState } from '../../src/renderer/src/lib/team.svelte'
import Harness from './Harness.svelte'

/** Renders `component` inside the app's contexts; `rerender` swaps its props. */
export function renderInApp<P extends object>(
  component: Component<P>,
  props: P,
  locale: Locale = 'ko',
  client?: Client,
  team?: TeamState,
) {
  const inner = component as unknown as Component<Record<string, unknown>>
  const view = render(Harness, {
    props: { component: inner, innerProps: props as Record<string, unknown>, locale, client, team },
  })
  return {
    ...view,
    rerenderWith: (next: P) =>
      view.rerender({ component: inner, innerProps: next as Record<string, unknown>, locale }),
  }
}
