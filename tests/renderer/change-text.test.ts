import { describe, expect, it } from 'vitest'
import { changeLines } from '../../src/shared/change-text'
import type { ChangeDetail } from '../../src/shared/changes'

/** What a feed entry says, as the Changes view and the timeline show it (and the export writes it). */
describe('changeLines', () => {
  const cases: ReadonlyArray<[ChangeDetail, string[], string[]]> = [
    [{ kind: 'baseline', records: 1 }, ['최초 동기화: 1건'], ['Initial sync of 1 record']],
    [
      { kind: 'baseline', records: 2500 },
      ['최초 동기화: 2,500건'],
      ['Initial sync of 2,500 records'],
    ],
    [{ kind: 'new', status: '감정접수' }, ['새로 들어옴 (감정접수)'], ['New (감정접수)']],
    [{ kind: 'new', status: null }, ['새로 들어옴'], ['New']],
    [
      { kind: 'status', before: '감정승인(배송중)', after: '배송완료' },
      ['상태 감정승인(배송중) → 배송완료'],
      ['Status 감정승인(배송중) → 배송완료'],
    ],
    [
      { kind: 'result', before: null, after: '정품' },
      ['감정 결과 없음 → 정품'],
      ['Result none → 정품'],
    ],
    [
      {
        kind: 'state',
        before: 'ready',
        after: 'cancel',
        beforeLabel: '발급대기',
        afterLabel: '발급취소',
      },
      ['발급 상태 발급대기 → 발급취소'],
      ['Issuance 발급대기 → 발급취소'],
    ],
    [{ kind: 'gone' }, ['서비스에서 더 이상 반환되지 않음'], ['No longer returned by the service']],
    [{ kind: 'back' }, ['서비스에 다시 나타남'], ['Returned by the service again']],
    [
      {
        kind: 'fields',
        fields: [
          { field: 'refOrderId', before: '0001', after: '0002' },
          { field: 'extraThing', before: 3, after: null },
        ],
      },
      ['주문번호: 0001 → 0002', 'extraThing: 3 → 없음'],
      ['Order no.: 0001 → 0002', 'extraThing: 3 → none'],
    ],
  ]

  it.each(cases)('%j in both languages', (detail, ko, en) => {
    expect(changeLines('ko', detail)).toEqual(ko)
    expect(changeLines('en', detail)).toEqual(en)
  })

  it('names status labels through the given label function, field values as sent', () => {
    const label = (text: string) => (text === '정품' ? 'Genuine' : text)
    expect(changeLines('en', { kind: 'result', before: null, after: '정품' }, label)).toEqual([
      'Result none → Genuine',
    ])
    expect(
      changeLines(
        'en',
        { kind: 'fields', fields: [{ field: 'x', before: '정품', after: '' }] },
        label,
      ),
    ).toEqual(['x: 정품 → none'])
  })
})
