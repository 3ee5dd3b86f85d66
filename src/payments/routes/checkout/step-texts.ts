import type { SecureCodeKind } from '../../domain/adapter-step.ts';
import type { CheckoutLocale } from './locales.ts';
import { isOneOf } from '../../../platform/lib/type-guards.ts';

// The words of the secure code and next step pages (issue 10), in the checkout's three languages.

export const STEP_NOTICES = [
  'code_rejected',
  'code_invalid',
  'code_resent',
  'resend_too_soon',
  'resend_limit',
  'resend_not_allowed',
  'provider_unreachable',
  'step_rejected',
] as const;
export type StepNotice = (typeof STEP_NOTICES)[number];

export interface StepText {
  codeTitle: string;
  codeMessage: Readonly<Record<SecureCodeKind, string>>;
  codeLabel: string;
  codeHint: (length: number | null) => string;
  confirmCode: string;
  attemptsLeft: (count: number) => string;
  resendButton: string;
  resendIn: (seconds: number) => string;
  nextStepTitle: string;
  nextStepMessage: string;
  continueButton: string;
  chooseOption: string;
  fieldRequired: string;
  fieldTooLong: (max: number) => string;
  fieldInvalid: string;
  notices: Readonly<Record<StepNotice, string>>;
}

const EN: StepText = {
  codeTitle: 'Enter your verification code',
  codeMessage: {
    otp: 'Your bank sent you a one-time code to confirm this payment.',
    sms: 'Your bank sent a one-time code by SMS to the phone linked to your card.',
    email: 'Your bank sent a one-time code by e-mail.',
    app: 'Open your banking app to get the one-time code.',
  },
  codeLabel: 'Verification code',
  codeHint: (length) => (length === null ? 'Letters and digits, as you received them' : `${length} characters`),
  confirmCode: 'Confirm',
  attemptsLeft: (count) => (count === 1 ? '1 attempt left' : `${count} attempts left`),
  resendButton: 'Send the code again',
  resendIn: (seconds) => `You can ask for a new code in ${seconds} s.`,
  nextStepTitle: 'A few more details',
  nextStepMessage: 'Your bank needs this information to complete the payment.',
  continueButton: 'Continue',
  chooseOption: 'Choose…',
  fieldRequired: 'This field is required.',
  fieldTooLong: (max) => `Use at most ${max} characters.`,
  fieldInvalid: 'This value does not have the expected form.',
  notices: {
    code_rejected: 'That code was not accepted. Check it and try again.',
    code_invalid: 'Enter the code exactly as you received it.',
    code_resent: 'A new code is on its way.',
    resend_too_soon: 'Please wait a moment before asking for another code.',
    resend_limit: 'No more codes can be sent for this payment.',
    resend_not_allowed: 'Your bank does not send this code again.',
    provider_unreachable: 'We could not reach your bank. Please try again.',
    step_rejected: 'Your bank did not accept these details. Please check them.',
  },
};

const ZH: StepText = {
  codeTitle: '请输入验证码',
  codeMessage: {
    otp: '您的银行已向您发送一次性验证码，用于确认此笔付款。',
    sms: '您的银行已通过短信向您银行卡绑定的手机发送一次性验证码。',
    email: '您的银行已通过电子邮件发送一次性验证码。',
    app: '请打开您的银行应用获取一次性验证码。',
  },
  codeLabel: '验证码',
  codeHint: (length) => (length === null ? '请按收到的内容输入字母和数字' : `${length} 位`),
  confirmCode: '确认',
  attemptsLeft: (count) => `还可尝试 ${count} 次`,
  resendButton: '重新发送验证码',
  resendIn: (seconds) => `${seconds} 秒后可重新获取验证码。`,
  nextStepTitle: '还需要一些信息',
  nextStepMessage: '您的银行需要以下信息才能完成付款。',
  continueButton: '继续',
  chooseOption: '请选择…',
  fieldRequired: '此项为必填项。',
  fieldTooLong: (max) => `最多 ${max} 个字符。`,
  fieldInvalid: '格式不正确。',
  notices: {
    code_rejected: '验证码未被接受，请检查后重试。',
    code_invalid: '请按收到的内容准确输入验证码。',
    code_resent: '新的验证码已发送。',
    resend_too_soon: '请稍候再申请新的验证码。',
    resend_limit: '此笔付款无法再发送验证码。',
    resend_not_allowed: '您的银行不会重新发送此验证码。',
    provider_unreachable: '暂时无法连接您的银行，请重试。',
    step_rejected: '您的银行未接受这些信息，请检查。',
  },
};

const JP: StepText = {
  codeTitle: '認証コードを入力してください',
  codeMessage: {
    otp: 'お支払いの確認のため、カード発行会社からワンタイムコードが送信されました。',
    sms: 'カードに登録された電話番号に SMS でワンタイムコードが送信されました。',
    email: 'メールでワンタイムコードが送信されました。',
    app: 'バンキングアプリを開いてワンタイムコードを確認してください。',
  },
  codeLabel: '認証コード',
  codeHint: (length) => (length === null ? '受け取ったとおりに英数字を入力してください' : `${length} 文字`),
  confirmCode: '確認する',
  attemptsLeft: (count) => `残り ${count} 回`,
  resendButton: 'コードを再送信する',
  resendIn: (seconds) => `${seconds} 秒後に新しいコードをリクエストできます。`,
  nextStepTitle: '追加情報の入力',
  nextStepMessage: 'お支払いを完了するため、カード発行会社が次の情報を必要としています。',
  continueButton: '続ける',
  chooseOption: '選択してください…',
  fieldRequired: 'この項目は必須です。',
  fieldTooLong: (max) => `${max} 文字以内で入力してください。`,
  fieldInvalid: '入力形式が正しくありません。',
  notices: {
    code_rejected: 'コードが受け付けられませんでした。確認して再度お試しください。',
    code_invalid: '受け取ったコードを正確に入力してください。',
    code_resent: '新しいコードを送信しました。',
    resend_too_soon: 'しばらく待ってから新しいコードをリクエストしてください。',
    resend_limit: 'このお支払いでは、これ以上コードを送信できません。',
    resend_not_allowed: 'カード発行会社はこのコードを再送信しません。',
    provider_unreachable: 'カード発行会社に接続できませんでした。もう一度お試しください。',
    step_rejected: 'カード発行会社がこの情報を受け付けませんでした。ご確認ください。',
  },
};

const TEXT_BY_LOCALE: Readonly<Record<CheckoutLocale, StepText>> = { en: EN, zh: ZH, jp: JP };

export function stepText(locale: CheckoutLocale): StepText {
  return TEXT_BY_LOCALE[locale];
}

// The notice query parameter is untrusted: only the known ones show.
export function stepNoticeOf(value: string | undefined): StepNotice | null {
  return isOneOf(STEP_NOTICES, value) ? value : null;
}
