// Payrail hosted checkout. Plain ES2020, no build, loaded with defer on every checkout page.
// Every pattern, limit and message comes from data- attributes the server rendered, so this file holds no
// text of its own. The card rules by brand (lengths, security code digits) come as data-card-rules, generated from
// domain/card-brand.ts's table; the two rules a pattern cannot say (a card number's check digit, an expiry not in
// the past) are written here as domain/card-checks.ts writes them for the server.
'use strict';

(function checkout() {
  const POLL_INTERVAL_MS = 1500;
  const POLL_DURATION_MAX_MS = 10 * 60 * 1000;
  const SLOW_AFTER_MS = 4000; // a bank still silent after this gets a word of explanation instead of a bare spinner
  const EXPIRES_DIGITS_MAX = 6; // MMYYYY
  const NO_RULES = { ranges: [], brands: {}, unknown: { panLengths: [19], cvvLength: 4 } };

  // ---- (0) the card rules by brand -----------------------------------------------------------

  function readCardRules(pan) {
    try {
      return JSON.parse(pan?.getAttribute('data-card-rules') || 'null') || NO_RULES;
    } catch (_error) {
      return NO_RULES;
    }
  }

  // As cardBrandOf: the first range whose prefix the digits start with (once there are enough of them).
  function brandOf(rules, digits) {
    for (let index = 0; index < rules.ranges.length; index += 1) {
      const [brand, low, high] = rules.ranges[index];
      if (digits.length < low.length) continue;
      const prefix = digits.slice(0, low.length);
      if (prefix >= low && prefix <= high) return brand;
    }
    return null;
  }

  function ruleOf(rules, brand) {
    return (brand && rules.brands[brand]) || rules.unknown;
  }

  function panDigitsMax(rules) {
    return Math.max.apply(null, rules.unknown.panLengths);
  }

  function cvvDigitsMax(rules) {
    return Object.keys(rules.brands).reduce((max, brand) => Math.max(max, rules.brands[brand].cvvLength), rules.unknown.cvvLength);
  }

  // ---- (1) live formatting -------------------------------------------------------------------

  function countDigits(text) {
    return text.replace(/\D/g, '').length;
  }

  // Rewrites the value and puts the caret back after the same number of digits it followed
  // (at the very end, past an inserted separator, when the user was typing at the end).
  function reformat(input, format) {
    const caret = input.selectionStart === null ? input.value.length : input.selectionStart;
    const atEnd = caret === input.value.length;
    const digitsBeforeCaret = countDigits(input.value.slice(0, caret));
    const formatted = format(input.value);
    if (formatted === input.value) return;
    input.value = formatted;
    let position = atEnd ? formatted.length : 0;
    let seen = 0;
    while (position < formatted.length && seen < digitsBeforeCaret) {
      if (/\d/.test(formatted.charAt(position))) seen += 1;
      position += 1;
    }
    if (input === document.activeElement) input.setSelectionRange(position, position);
  }

  // Groups of four; a brand of 15-digit numbers only (American Express) is printed 4-6-5.
  function formatPan(rules, value) {
    const digits = value.replace(/\D/g, '').slice(0, panDigitsMax(rules));
    const lengths = ruleOf(rules, brandOf(rules, digits)).panLengths;
    if (lengths.length === 1 && lengths[0] === 15) {
      return [digits.slice(0, 4), digits.slice(4, 10), digits.slice(10)].filter((group) => group !== '').join(' ');
    }
    return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
  }

  function formatExpires(value, inserting) {
    let digits = value.replace(/\D/g, '').slice(0, EXPIRES_DIGITS_MAX);
    if (digits.length === 1 && inserting && digits > '1') digits = `0${digits}`; // "3" → "03/"
    if (digits.length > 2) return `${digits.slice(0, 2)}/${digits.slice(2)}`;
    // The slash is added only while typing forward, so Backspace can remove it.
    if (digits.length === 2 && inserting) return `${digits}/`;
    return digits;
  }

  function formatCvv(rules, value) {
    return value.replace(/\D/g, '').slice(0, cvvDigitsMax(rules));
  }

  // The brand the number's first digits name, shown beside it.
  function showBrand(rules, pan, display) {
    if (!display) return;
    const brand = brandOf(rules, pan.value.replace(/\D/g, ''));
    const label = brand && rules.brands[brand] ? rules.brands[brand].label : '';
    if (display.textContent !== label) display.textContent = label;
    display.hidden = label === '';
    if (brand) display.setAttribute('data-brand', brand);
    else display.removeAttribute('data-brand');
  }

  function isInserting(event) {
    return !event.inputType || event.inputType.indexOf('insert') === 0;
  }

  function setUpFormatting(form) {
    const pan = form.querySelector('#pan');
    const expires = form.querySelector('#expires');
    const cvv = form.querySelector('#cvv');
    const rules = readCardRules(pan);
    const brandDisplay = form.querySelector('#card-brand');
    if (pan) {
      showBrand(rules, pan, brandDisplay);
      pan.addEventListener('input', () => {
        reformat(pan, (value) => formatPan(rules, value));
        showBrand(rules, pan, brandDisplay);
      });
      // Backspace just after a group space deletes the digit before it, not the space alone.
      pan.addEventListener('keydown', (event) => {
        const start = pan.selectionStart;
        if (event.key !== 'Backspace' || start === null || start !== pan.selectionEnd) return;
        if (start > 0 && pan.value.charAt(start - 1) === ' ') pan.setSelectionRange(start - 1, start - 1);
      });
    }
    if (expires) {
      expires.addEventListener('input', (event) => {
        reformat(expires, (value) => formatExpires(value, isInserting(event)));
      });
    }
    if (cvv)
      cvv.addEventListener('input', () => {
        reformat(cvv, (value) => formatCvv(rules, value));
      });
  }

  // ---- (2) validation when a field is left, and on submit ----------------------------------------

  function passesLuhn(digits) {
    let sum = 0;
    let doubled = false;
    for (let index = digits.length - 1; index >= 0; index -= 1) {
      let digit = digits.charCodeAt(index) - 48;
      if (doubled) {
        digit *= 2;
        if (digit > 9) digit -= 9;
      }
      sum += digit;
      doubled = !doubled;
    }
    return sum % 10 === 0;
  }

  // For a value of the right shape: a typo in the card number (Luhn),
  // or an expiry (MM/YY read as 20YY, or MM/YYYY) before data-valid-from (YYYY-MM, the server's month).
  // For the card number, first its brand's lengths; for the security code, the digits of the number's brand.
  function checkProblem(input, value) {
    const check = input.getAttribute('data-check');
    const message = input.getAttribute('data-check-message') || '';
    if (check === 'check-digit') {
      const digits = value.replace(/ /g, '');
      const rules = readCardRules(input);
      const brand = brandOf(rules, digits);
      if (ruleOf(rules, brand).panLengths.indexOf(digits.length) === -1)
        return brand ? rules.brands[brand].panMessage : input.getAttribute('data-message') || '';
      return passesLuhn(digits) ? null : message;
    }
    if (check === 'cvv-length') {
      const pan = input.form ? input.form.querySelector('#pan') : null;
      const rules = readCardRules(pan);
      const brand = brandOf(rules, pan ? pan.value.replace(/\D/g, '') : '');
      if (value.length === ruleOf(rules, brand).cvvLength) return null;
      return brand ? rules.brands[brand].cvvMessage : input.getAttribute('data-message') || '';
    }
    if (check === 'expiry') {
      const parts = value.split('/').map((part) => part.trim());
      const validFrom = (input.getAttribute('data-valid-from') || '').split('-').map(Number);
      if (parts.length !== 2 || validFrom.length !== 2) return null;
      const year = parts[1].length === 2 ? 2000 + Number(parts[1]) : Number(parts[1]);
      return year * 12 + Number(parts[0]) < validFrom[0] * 12 + validFrom[1] ? message : null;
    }
    return null;
  }

  // As the server reads the form: the value trimmed, patterns as ECMA-262 regular expressions.
  function fieldProblem(input) {
    const value = input.value.trim();
    const length = value.length;
    const pattern = input.getAttribute('data-pattern');
    const lengthMin = input.hasAttribute('data-min-length') ? Number(input.getAttribute('data-min-length')) : 0;
    const lengthMax = input.hasAttribute('data-max-length') ? Number(input.getAttribute('data-max-length')) : Infinity;
    const valid = length >= lengthMin && length <= lengthMax && (!pattern || new RegExp(pattern, 'u').test(value));
    return valid ? checkProblem(input, value) : input.getAttribute('data-message') || '';
  }

  function showFieldError(form, input, message) {
    const errorArea = form.querySelector(`[data-error-for="${input.id}"]`);
    if (errorArea) errorArea.textContent = message || '';
    const field = input.closest('.field');
    if (field) field.classList.toggle('field-invalid', Boolean(message));
    if (message) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }

  function showSummary(form, visible) {
    const summary = form.querySelector('#form-errors');
    if (!summary) return;
    summary.textContent = '';
    if (!visible) return;
    const paragraph = document.createElement('p');
    paragraph.textContent = summary.getAttribute('data-message') || '';
    summary.appendChild(paragraph);
  }

  function setUpValidation(form) {
    const inputs = Array.from(form.querySelectorAll('input[data-message]'));
    const button = form.querySelector('#pay');
    inputs.forEach((input) => {
      input.addEventListener('input', () => {
        input.setAttribute('data-edited', 'true');
        if (input.getAttribute('aria-invalid') === 'true' && fieldProblem(input) === null) showFieldError(form, input, null);
        // The security code's length follows the number's brand: a corrected number may settle it.
        const cvv = input.id === 'pan' ? form.querySelector('#cvv') : null;
        if (cvv && cvv.getAttribute('aria-invalid') === 'true' && fieldProblem(cvv) === null) showFieldError(form, cvv, null);
      });
      // Leaving a field checks it, unless the customer is only passing through an empty one.
      input.addEventListener('blur', () => {
        if (input.value.trim() === '' && input.getAttribute('data-edited') !== 'true') return;
        showFieldError(form, input, fieldProblem(input));
      });
    });
    form.addEventListener('submit', (event) => {
      if (form.getAttribute('data-submitting') === 'true') {
        event.preventDefault();
        return;
      }
      let firstInvalid = null;
      inputs.forEach((input) => {
        const message = fieldProblem(input);
        showFieldError(form, input, message);
        if (message !== null && firstInvalid === null) firstInvalid = input;
      });
      showSummary(form, firstInvalid !== null);
      if (firstInvalid !== null) {
        event.preventDefault();
        firstInvalid.focus();
        return;
      }
      form.setAttribute('data-submitting', 'true');
      rememberSubmission(form.getAttribute('data-payment-token'));
      if (button) {
        button.disabled = true;
        button.setAttribute('aria-busy', 'true');
        if (button.getAttribute('data-busy-text')) button.textContent = button.getAttribute('data-busy-text');
        explainSlowAnswer(button);
      }
    });
    // Coming back through the history cache must not leave a dead button.
    window.addEventListener('pageshow', (event) => {
      if (!event.persisted || !button) return;
      form.removeAttribute('data-submitting');
      button.disabled = false;
      button.removeAttribute('aria-busy');
    });
  }

  // While the form's post waits on the bank, a greyed button alone looks like a hang: say why, after a while.
  function explainSlowAnswer(button) {
    const message = button.getAttribute('data-slow-text');
    if (!message) return;
    window.setTimeout(() => {
      if (!button.disabled || document.getElementById('slow-note')) return;
      const note = document.createElement('p');
      note.id = 'slow-note';
      note.className = 'slow-note';
      note.setAttribute('role', 'status');
      note.textContent = message;
      button.insertAdjacentElement('afterend', note);
    }, SLOW_AFTER_MS);
  }

  // The page after the form's post learns how long the customer has waited already: a waiting page that comes after
  // a slow answer must not start over with "a few seconds". Read once, by the first page that loads.
  const SUBMITTED_AT_KEY = 'payrail-submitted-at';

  function rememberSubmission(token) {
    try {
      window.sessionStorage.setItem(SUBMITTED_AT_KEY, JSON.stringify({ token, at: Date.now() }));
    } catch (_error) {
      // storage refused (private mode): the waiting page counts from its own start
    }
  }

  function takeSubmittedAt() {
    try {
      const stored = JSON.parse(window.sessionStorage.getItem(SUBMITTED_AT_KEY) || 'null');
      window.sessionStorage.removeItem(SUBMITTED_AT_KEY);
      const token = window.location.pathname.split('/')[2];
      return stored && stored.token === token && typeof stored.at === 'number' && stored.at <= Date.now() ? stored.at : null;
    } catch (_error) {
      return null;
    }
  }

  // ---- (3) redirects -------------------------------------------------------------------------

  function setUpRedirects() {
    const autosubmit = document.querySelector('form[data-autosubmit]');
    if (autosubmit && autosubmit.getAttribute('data-submitted') !== 'true') {
      autosubmit.setAttribute('data-submitted', 'true');
      autosubmit.submit();
      // A form that targets the frame stays on this page; its button must not post twice.
      if (autosubmit.getAttribute('target')) autosubmit.hidden = true;
    }
    const follow = document.querySelector('a#continue[data-autofollow]');
    if (follow) window.location.replace(follow.href);
  }

  // ---- (4) status poller ---------------------------------------------------------------------

  function isNavigable(url) {
    try {
      const protocol = new URL(url, window.location.href).protocol;
      return protocol === 'https:' || protocol === 'http:';
    } catch (_error) {
      return false;
    }
  }

  function setUpPoller(waiting, submittedAt) {
    const statusUrl = waiting.getAttribute('data-status-url');
    // The wait began with the form's post, when this page follows it.
    const startedAt = submittedAt === null ? Date.now() : submittedAt;
    // The payment is already over: straight on to where it ends, no first poll.
    const goTo = waiting.getAttribute('data-go-to');
    if (goTo && isNavigable(goTo)) {
      window.location.replace(goTo);
      return;
    }
    // Once slow, the page says so instead of "a few seconds", and never goes back to it.
    function explainSlowBank() {
      const note = document.getElementById('slow-note');
      if (!note || waiting.classList.contains('waiting-stopped')) return;
      note.textContent = waiting.getAttribute('data-slow-message') || '';
      note.hidden = false;
      const message = document.getElementById('waiting-message');
      if (message) message.hidden = true;
    }
    const waitedMs = Date.now() - startedAt;
    if (waitedMs >= SLOW_AFTER_MS) explainSlowBank();
    else window.setTimeout(explainSlowBank, SLOW_AFTER_MS - waitedMs);

    function giveUp() {
      const message = document.getElementById('waiting-message');
      if (message) {
        message.textContent = waiting.getAttribute('data-timeout-message') || '';
        message.hidden = false;
      }
      const note = document.getElementById('slow-note');
      if (note) note.hidden = true;
      waiting.classList.add('waiting-stopped');
      const checkAgain = document.getElementById('check-again');
      if (checkAgain) checkAgain.hidden = false;
    }

    function schedule() {
      if (Date.now() - startedAt + POLL_INTERVAL_MS > POLL_DURATION_MAX_MS) giveUp();
      else window.setTimeout(poll, POLL_INTERVAL_MS);
    }

    function settle(status) {
      if (status?.final !== true) return false;
      if (typeof status.redirectUrl === 'string' && status.redirectUrl !== '' && isNavigable(status.redirectUrl)) {
        window.location.assign(status.redirectUrl);
      } else {
        window.location.reload(); // the server now renders the result page
      }
      return true;
    }

    function poll() {
      fetch(statusUrl, { headers: { Accept: 'application/json' }, cache: 'no-store', credentials: 'same-origin' })
        .then((response) => (response.ok ? response.json() : null))
        .catch(() => null) // a network blip is one missed poll, not the end
        .then((status) => {
          if (!settle(status)) schedule();
        });
    }

    schedule();
  }

  // A page answering a form post (a refused card form) becomes a plain GET entry: Back or Reload to it shows the
  // page as it stands now instead of asking to resubmit the form.
  function forgetFormPost() {
    if (window.history && typeof window.history.replaceState === 'function') {
      window.history.replaceState(window.history.state, '', window.location.href);
    }
  }

  function start() {
    forgetFormPost();
    const submittedAt = takeSubmittedAt();
    const cardForm = document.getElementById('card-form');
    if (cardForm) {
      setUpFormatting(cardForm);
      setUpValidation(cardForm);
    }
    // A gateway that takes no card: the same form without fields, guarded against a second press all the same.
    const paymentForm = document.getElementById('payment-form');
    if (paymentForm) setUpValidation(paymentForm);
    setUpRedirects();
    const waiting = document.querySelector('#waiting[data-status-url]');
    if (waiting) setUpPoller(waiting, submittedAt);
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
