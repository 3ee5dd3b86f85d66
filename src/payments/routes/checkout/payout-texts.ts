import type { CheckoutLocale } from './locales.ts';

// The words of a payout's read-only status page (issue 19): a payout has no customer step, so its links show where
// it stands and nothing else.

export type PayoutPageStatus = 'in_progress' | 'approved' | 'declined' | 'cancelled' | 'refunded';

export interface PayoutText {
  pageTitle: string;
  title: Readonly<Record<PayoutPageStatus, string>>;
  message: Readonly<Record<PayoutPageStatus, string>>;
  amountLabel: string;
  orderLabel: string;
  readOnlyNote: string;
}

const TEXT_BY_LOCALE: Readonly<Record<CheckoutLocale, PayoutText>> = {
  en: {
    pageTitle: 'Payout',
    title: {
      in_progress: 'Payout in progress',
      approved: 'Payout sent',
      declined: 'Payout declined',
      cancelled: 'Payout cancelled',
      refunded: 'Payout returned',
    },
    message: {
      in_progress: 'The payout is on its way to the recipient. This page shows its latest status when reloaded.',
      approved: 'The payout was sent to the recipient.',
      declined: 'The recipient’s bank did not accept the payout. The amount was not sent.',
      cancelled: 'The payout was cancelled. The amount was not sent.',
      refunded: 'The payout was sent and has since been returned.',
    },
    amountLabel: 'Amount',
    orderLabel: 'Order',
    readOnlyNote: 'Nothing needs to be done on this page. You can close it.',
  },
  zh: {
    pageTitle: '出款',
    title: { in_progress: '出款处理中', approved: '出款已发送', declined: '出款被拒绝', cancelled: '出款已取消', refunded: '出款已退回' },
    message: {
      in_progress: '款项正在发送给收款人。刷新此页面可查看最新状态。',
      approved: '款项已发送给收款人。',
      declined: '收款人的银行未接受此笔出款，款项未发送。',
      cancelled: '此笔出款已取消，款项未发送。',
      refunded: '此笔出款已发送，之后已被退回。',
    },
    amountLabel: '金额',
    orderLabel: '订单',
    readOnlyNote: '此页面无需任何操作，您可以关闭它。',
  },
  jp: {
    pageTitle: '送金',
    title: {
      in_progress: '送金処理中',
      approved: '送金済み',
      declined: '送金が承認されませんでした',
      cancelled: '送金はキャンセルされました',
      refunded: '送金は返還されました',
    },
    message: {
      in_progress: '受取人への送金を処理しています。このページを再読み込みすると最新の状況が表示されます。',
      approved: '受取人への送金が完了しました。',
      declined: '受取人の金融機関が送金を受け付けませんでした。送金は行われていません。',
      cancelled: '送金はキャンセルされました。送金は行われていません。',
      refunded: '送金は完了後、返還されました。',
    },
    amountLabel: '金額',
    orderLabel: 'ご注文',
    readOnlyNote: 'このページで行う操作はありません。閉じていただいて構いません。',
  },
};

export function payoutText(locale: CheckoutLocale): PayoutText {
  return TEXT_BY_LOCALE[locale];
}

// Every payment status a payout can hold, as its page tells it.
export function payoutPageStatus(status: string): PayoutPageStatus {
  if (status === 'approved' || status === 'declined' || status === 'cancelled' || status === 'refunded') return status;
  return status === 'expired' ? 'cancelled' : 'in_progress';
}
