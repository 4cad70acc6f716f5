import type { Page } from '@playwright/test'

/** A cut text and where it is. */
export interface Cut {
  readonly where: string
  readonly text: string
}

/**
 * What the window cuts: header text that does not fit its header (any), and
 * cut cell text without a tooltip naming it. Only boxes that clip their
 * content (overflow other than visible) count as cutting.
 */
export function cutsOf(page: Page): Promise<{ headers: Cut[]; cells: Cut[]; checked: number }> {
  return page.evaluate(() => {
    const clips = (element: Element): boolean => {
      const style = getComputedStyle(element)
      return style.overflowX !== 'visible' || style.textOverflow === 'ellipsis'
    }
    // A screen reader's text (visually hidden, a 1 px box) is not cut for anyone.
    const cut = (element: Element): boolean =>
      element instanceof HTMLElement &&
      element.offsetParent !== null &&
      element.getBoundingClientRect().width > 2 &&
      clips(element) &&
      element.scrollWidth > element.clientWidth + 1
    const inside = (root: Element): Element[] => [root, ...root.querySelectorAll('*')]
    const text = (element: Element) => (element.textContent ?? '').trim().replace(/\s+/gu, ' ')
    const headers: Cut[] = []
    const cells: Cut[] = []
    let checked = 0
    for (const header of document.querySelectorAll('[role=columnheader], thead th')) {
      checked += 1
      for (const element of inside(header)) {
        if (cut(element)) headers.push({ where: header.outerHTML.slice(0, 80), text: text(header) })
      }
    }
    for (const cell of document.querySelectorAll(
      '[role=gridcell], tbody td, [data-testid=change-entry] *',
    )) {
      checked += 1
      for (const element of inside(cell)) {
        if (!cut(element)) continue
        const titled = element.closest('[title]')
        const tip = titled?.getAttribute('title') ?? ''
        if (titled === null || (!cell.contains(titled) && titled !== cell.closest('[title]'))) {
          cells.push({ where: element.outerHTML.slice(0, 80), text: text(element) })
        } else if (tip.trim() === '') {
          cells.push({ where: element.outerHTML.slice(0, 80), text: text(element) })
        }
      }
    }
    // Member ids are whole at these sizes (the product name gives way first).
    for (const member of document.querySelectorAll('[role=gridcell].member')) {
      if (cut(member)) cells.push({ where: 'member id cut', text: text(member) })
    }
    return { headers, cells, checked }
  })
}
