import type { CardPageView } from '../../flows/card-pages.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { renderCardDocument } from './markup.ts';

export interface RenderedPage {
  statusCode: number;
  html: string;
}

const PIN_PROBLEMS = {
  pin_format: 'The PIN must be exactly 4 digits.',
  pin_mismatch: 'The two PINs differ. Type the same PIN twice.',
  pin_too_simple: 'This PIN is too easy to guess (one digit repeated, or a straight run such as 1234). Choose another.',
} as const;

const GONE = {
  invalid: { statusCode: 404, title: 'Link not valid', text: 'This card link is not valid. Ask for a new one in your app.' },
  expired: { statusCode: 410, title: 'Link expired', text: 'This card link has expired. Ask for a new one in your app.' },
  used: { statusCode: 410, title: 'Link already used', text: 'This card link was already used or replaced by a newer one. Ask for a new one in your app.' },
} as const;

const groupedPan = (pan: string) => pan.replace(/(\d{4})(?=\d)/g, '$1 ');
const twoDigits = (value: number) => String(value).padStart(2, '0');

// Every view of the card pages, by what the flow decided; the PIN form posts back to the same address.
export function renderCardPage(view: CardPageView, token: string): RenderedPage {
  switch (view.view) {
    case 'card_data':
      return page(200, 'Your card', cardDataMain(view.card));
    case 'reveal_prompt':
      return page(200, 'Show your card', revealPromptMain(token, view.panMask));
    case 'pin_form':
      return page(
        view.problem === null ? 200 : 422,
        'Set your card PIN',
        pinFormMain(token, view.panMask, view.problem === null ? null : PIN_PROBLEMS[view.problem]),
      );
    case 'pin_set':
      return page(
        200,
        'PIN set',
        html`<h1>PIN set</h1><p id="pin-set">The PIN of card <span class="mask">${view.panMask}</span> is set. You can close this page.</p>`,
      );
    case 'gone': {
      const gone = GONE[view.reason];
      return page(gone.statusCode, gone.title, html`<h1>${gone.title}</h1><p id="link-gone">${gone.text}</p>`);
    }
    case 'issuer_error':
      return page(
        502,
        'Card issuer unavailable',
        html`<h1>Card issuer unavailable</h1><p id="issuer-error">The card issuer did not answer. Ask for a new link and try again later.</p>`,
      );
  }
}

function page(statusCode: number, title: string, main: SafeHtml): RenderedPage {
  return { statusCode, html: renderCardDocument(title, main) };
}

function cardDataMain(card: Extract<CardPageView, { view: 'card_data' }>['card']): SafeHtml {
  return html`<h1>Your card</h1>
<dl>
<dt>Card number</dt><dd id="pan">${groupedPan(card.pan)}</dd>
<dt>Expires</dt><dd id="expiry">${twoDigits(card.expMonth)}/${twoDigits(card.expYear % 100)}</dd>
<dt>CVV</dt><dd id="cvv">${card.cvv}</dd>
<dt>Card holder</dt><dd id="holder" class="holder">${card.holder}</dd>
</dl>
<p class="note">This page is shown once: reloading it will not show the card again. Close it when you are done.</p>`;
}

function pinFormMain(token: string, panMask: string, problem: string | null): SafeHtml {
  const pinInput = (id: string) =>
    html`<input id="${id}" name="${id}" type="password" inputmode="numeric" pattern="[0-9]{4}" minlength="4" maxlength="4" required autocomplete="off">`;
  return html`<h1>Set your card PIN</h1>
<p>Card <span class="mask">${panMask}</span></p>
${problem === null ? '' : html`<p class="error" id="pin-error" role="alert">${problem}</p>`}
<form method="post" action="/cards/${token}" autocomplete="off">
<label for="pin">New PIN (4 digits)</label>${pinInput('pin')}
<label for="pin_confirmation">Repeat the PIN</label>${pinInput('pin_confirmation')}
<button type="submit" id="set-pin">Set PIN</button>
</form>`;
}

// Asked before revealing: a link preview or a scanner reads this page and leaves the link unused.
function revealPromptMain(token: string, panMask: string): SafeHtml {
  return html`<h1>Show your card</h1>
<p>Card <span class="mask">${panMask}</span></p>
<p class="note">The card number, expiry and CVV are shown once: have a safe place to read them.</p>
<form method="post" action="/cards/${token}" autocomplete="off">
<input type="hidden" name="reveal" value="1">
<button type="submit" id="reveal-card">Show card details</button>
</form>`;
}
