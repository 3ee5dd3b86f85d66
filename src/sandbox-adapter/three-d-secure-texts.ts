import type { AmountLocale } from '../platform/lib/format-amount.ts';
import { preferredPageLocale } from '../platform/lib/accept-language.ts';

// The sandbox 3-D Secure page in Payrail's three page languages (spec 2.1: en, zh, jp). The adapter contract
// carries no locale, so the page does what an issuer's ACS does: it reads the customer's browser language
// (Accept-Language), which the browser sends with the checkout's form post and with every click after it.

export type ThreeDSecureLocale = AmountLocale;

export interface ThreeDSecureText {
  htmlLang: string;
  title: string;
  note: string;
  amountLabel: string;
  cardLabel: string;
  transactionLabel: string;
  unknownCard: string;
  inMinorUnits: (amount: string) => string; // a currency the sandbox knows no exponent of
  successButton: string;
  failureButton: string;
  alreadyComplete: (status: string) => string;
  returnLink: string;
  unknownTransaction: string;
  mdMismatch: string;
  badRequest: (detail: string) => string;
  pageFailed: string;
  testModeBand: string; // on every page: the sandbox moves no money
}

const EN: ThreeDSecureText = {
  htmlLang: 'en',
  title: 'Sandbox 3-D Secure',
  note: 'This is the Payrail sandbox. No bank is involved: choose how the cardholder authentication ends.',
  amountLabel: 'Amount',
  cardLabel: 'Card',
  transactionLabel: 'Transaction',
  unknownCard: 'unknown',
  inMinorUnits: (amount) => `${amount} (minor units)`,
  successButton: 'Authentication successful',
  failureButton: 'Authentication failed',
  alreadyComplete: (status) => `Authentication is already complete; the transaction is ${status}.`,
  returnLink: 'Return to the merchant',
  unknownTransaction: 'No sandbox 3-D Secure transaction has this id (or it expired).',
  mdMismatch: 'MD does not match the transaction of this page.',
  badRequest: (detail) => `Bad request: ${detail}`,
  pageFailed: 'The sandbox 3-D Secure page failed; try again.',
  testModeBand: 'Test mode — no real money moves',
};

const ZH: ThreeDSecureText = {
  htmlLang: 'zh-CN',
  title: '沙盒 3-D Secure 验证',
  note: '这是 Payrail 沙盒环境，不涉及任何银行：请选择持卡人验证的结果。',
  amountLabel: '金额',
  cardLabel: '银行卡',
  transactionLabel: '交易',
  unknownCard: '未知',
  inMinorUnits: (amount) => `${amount}（最小货币单位）`,
  successButton: '验证成功',
  failureButton: '验证失败',
  alreadyComplete: (status) => `验证已完成；交易状态：${status}。`,
  returnLink: '返回商户',
  unknownTransaction: '没有此编号的沙盒 3-D Secure 交易（或已过期）。',
  mdMismatch: 'MD 与本页面的交易不符。',
  badRequest: (detail) => `请求无效：${detail}`,
  pageFailed: '沙盒 3-D Secure 页面出错，请重试。',
  testModeBand: '测试模式 — 不会产生真实资金流动',
};

const JP: ThreeDSecureText = {
  htmlLang: 'ja',
  title: 'サンドボックス 3-D セキュア',
  note: 'これは Payrail のサンドボックスです。銀行は関与しません。カード会員認証の結果を選んでください。',
  amountLabel: '金額',
  cardLabel: 'カード',
  transactionLabel: '取引',
  unknownCard: '不明',
  inMinorUnits: (amount) => `${amount}（最小通貨単位）`,
  successButton: '認証成功',
  failureButton: '認証失敗',
  alreadyComplete: (status) => `認証はすでに完了しています。取引の状態：${status}。`,
  returnLink: '加盟店に戻る',
  unknownTransaction: 'この ID のサンドボックス 3-D セキュア取引はありません（または期限切れです）。',
  mdMismatch: 'MD がこのページの取引と一致しません。',
  badRequest: (detail) => `不正なリクエスト：${detail}`,
  pageFailed: 'サンドボックス 3-D セキュアのページでエラーが発生しました。もう一度お試しください。',
  testModeBand: 'テストモード — 実際のお金は動きません',
};

const TEXTS: Readonly<Record<ThreeDSecureLocale, ThreeDSecureText>> = { en: EN, zh: ZH, jp: JP };

export function threeDSecureText(locale: ThreeDSecureLocale): ThreeDSecureText {
  return TEXTS[locale];
}

// The browser's language when the page speaks it, else en.
export function threeDSecureLocaleOf(acceptLanguage: string | undefined): ThreeDSecureLocale {
  return preferredPageLocale(acceptLanguage) ?? 'en';
}
