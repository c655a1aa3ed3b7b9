// Progressive enhancements for every dashboard page; each page works without them.

// Copy buttons: <button data-copy="#selector"> copies the element's value or text.
document.addEventListener('click', async (event) => {
  const button = event.target instanceof Element ? event.target.closest('[data-copy]') : null;
  if (!button) return;
  const source = document.querySelector(button.getAttribute('data-copy'));
  if (!source) return;
  const text = 'value' in source ? source.value : source.textContent.trim();
  let copied = false;
  try {
    await navigator.clipboard.writeText(text);
    copied = true;
  } catch {
    // Without the asynchronous clipboard (plain http on another host), select and copy.
    if ('select' in source) {
      source.select();
      copied = document.execCommand('copy');
    }
  }
  const label = button.textContent;
  button.textContent = copied ? 'Copied' : 'Press Ctrl+C';
  button.setAttribute('aria-live', 'polite');
  setTimeout(() => {
    button.textContent = label;
  }, 2000);
});

// Forms that change something ask first when they say so, and show that they are working.
document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  const question = form.getAttribute('data-confirm');
  if (question && !window.confirm(question)) {
    event.preventDefault();
    return;
  }
  for (const button of form.querySelectorAll('button[type=submit]')) {
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
  }
  showLoading();
});

// Navigation within the dashboard shows the loading bar until the next page arrives.
document.addEventListener('click', (event) => {
  const link = event.target instanceof Element ? event.target.closest('a[href^="/dashboard"]') : null;
  if (link && !event.ctrlKey && !event.metaKey && !event.shiftKey && !link.hasAttribute('download'))
    showLoading();
});
window.addEventListener('pageshow', () => {
  const bar = document.getElementById('loading-bar');
  if (bar) bar.hidden = true;
  for (const button of document.querySelectorAll('button[aria-busy]')) {
    button.disabled = false;
    button.removeAttribute('aria-busy');
  }
});

function showLoading() {
  const bar = document.getElementById('loading-bar');
  if (bar) bar.hidden = false;
}
