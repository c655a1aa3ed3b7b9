// Quire page-view tracker: cookie-free, no storage, about 1 KB. Records the first view and every
// single-page-app navigation (history.pushState, replaceState, back/forward) as one beacon each.
//   <script defer src="https://quire.example.com/script.js" data-project="prj_..."></script>
(() => {
  const script = document.currentScript;
  const project = script?.getAttribute('data-project');
  if (!script || !project) return;
  const endpoint = new URL(`/v1/analytics/${encodeURIComponent(project)}/beacon`, script.src).href;
  let lastPath = null;
  let lastUrl = document.referrer;

  function send() {
    if (location.pathname === lastPath) return;
    const body = JSON.stringify({ url: location.href, referrer: lastUrl });
    lastPath = location.pathname;
    lastUrl = location.href;
    if (navigator.sendBeacon?.(endpoint, body)) return;
    fetch(endpoint, { method: 'POST', body, keepalive: true, credentials: 'omit' }).catch(() => {});
  }

  for (const method of ['pushState', 'replaceState']) {
    const original = history[method];
    history[method] = function (...args) {
      const result = original.apply(this, args);
      send();
      return result;
    };
  }
  addEventListener('popstate', send);
  if (document.visibilityState === 'prerender') {
    document.addEventListener('visibilitychange', send, { once: true });
  } else {
    send();
  }
})();
