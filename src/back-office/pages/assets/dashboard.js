// The dashboard's few behaviours, without inline script (CSP script-src 'self').
// A button with data-confirm asks before its form is sent.
document.addEventListener('submit', (event) => {
  const submitter = event.submitter;
  const question = submitter?.dataset?.confirm ?? event.target?.dataset?.confirm;
  if (question && !window.confirm(question)) event.preventDefault();
});
// A "copy" button copies the text of the element its data-copy names.
document.addEventListener('click', (event) => {
  const button = event.target.closest?.('[data-copy]');
  if (!button) return;
  const source = document.getElementById(button.dataset.copy);
  if (source && navigator.clipboard) navigator.clipboard.writeText(source.textContent.trim());
});
// payments: a form with data-once sends once; a second click (a double submit) sends nothing.
document.addEventListener('submit', (event) => {
  const form = event.target;
  if (event.defaultPrevented || !form?.hasAttribute?.('data-once')) return;
  setTimeout(() => {
    for (const button of form.querySelectorAll('button')) button.disabled = true;
  }, 0);
});
// payments: a page brought back from the back/forward cache may send its form again.
window.addEventListener('pageshow', (event) => {
  if (!event.persisted) return;
  for (const button of document.querySelectorAll('form[data-once] button')) button.disabled = false;
});
