import type { MessageKey } from '../../../shared/i18n'
import {
  GUARANTEE_STATE_LABELS,
  GUARANTEE_STATES,
  type GuaranteeState,
} from '../../../shared/domain'

/** Badge tones. */
export type Tone = 'neutral' | 'good' | 'info' | 'warn' | 'bad' | 'muted'

/** Observed inspection progress labels (spec), in workflow order; others are shown as they come. */
export const INSPECTION_STATUSES = ['감정승인(배송중)', '배송완료'] as const

/** Tone of an inspection progress label. */
export function inspectionStatusTone(status: string | null): Tone {
  if (status === null) return 'muted'
  if (status === '배송완료') return 'good'
  if (status.includes('배송중') || status.includes('승인')) return 'info'
  if (status.includes('반려') || status.includes('취소')) return 'bad'
  return 'neutral'
}

/** Tone of an appraisal result label: `정품` (authentic) is good, other known verdicts bad. */
export function inspectionResultTone(result: string): Tone {
  if (result === '정품') return 'good'
  if (result.includes('가품') || result.includes('불가')) return 'bad'
  return 'neutral'
}

/** Tone of a guarantee issuance state. */
export function guaranteeTone(state: GuaranteeState | null): Tone {
  switch (state) {
    case 'complete':
      return 'good'
    case 'ready':
      return 'warn'
    case 'cancel':
      return 'bad'
    case null:
      return 'neutral'
  }
}

/** Guarantee issuance labels (as the service sends them) in workflow order. */
export const GUARANTEE_STATUSES: readonly string[] = GUARANTEE_STATES.map(
  (state) => GUARANTEE_STATE_LABELS[state],
)

/**
 * The message of each status or result label the service sends (its Korean
 * text is the label itself). A label not listed here is shown exactly as the
 * service sent it.
 */
export const SERVICE_LABEL_MESSAGES: Readonly<Record<string, MessageKey>> = {
  감정접수: 'serviceLabel.received',
  '감정승인(배송중)': 'serviceLabel.approvedShipping',
  배송완료: 'serviceLabel.delivered',
  [GUARANTEE_STATE_LABELS.ready]: 'serviceLabel.awaitingIssuance',
  [GUARANTEE_STATE_LABELS.complete]: 'serviceLabel.issued',
  [GUARANTEE_STATE_LABELS.cancel]: 'serviceLabel.issuanceCancelled',
  정품: 'serviceLabel.genuine',
  가품: 'serviceLabel.counterfeit',
  감정불가: 'serviceLabel.cannotAppraise',
}
