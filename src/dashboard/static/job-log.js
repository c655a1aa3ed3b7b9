// The live step log of an active job: appends each event as the server sends it (already escaped
// HTML, rendered by the same code as the page), and reloads the page once the job settles so that
// the pull request link and the diff appear.
const log = document.getElementById('step-log');
const state = document.getElementById('stream-state');

if (log?.dataset.stream && 'EventSource' in window) {
  const url = `${log.dataset.stream}?after=${encodeURIComponent(log.dataset.after ?? '0')}`;
  const source = new EventSource(url);
  const show = (text) => {
    state.hidden = text === '';
    state.textContent = text;
  };
  show('Connecting to the live log…');
  source.addEventListener('open', () => show(''));
  source.addEventListener('error', () => show('The live log is reconnecting…'));
  const onEvent = (message) => {
    const event = JSON.parse(message.data);
    if (document.querySelector(`[data-event-id="${CSS.escape(message.lastEventId)}"]`)) return;
    const atBottom = log.scrollTop + log.clientHeight >= log.scrollHeight - 8;
    log.insertAdjacentHTML('beforeend', event.html);
    if (atBottom) log.scrollTop = log.scrollHeight;
    if (event.type === 'status-change' && event.status && event.status !== 'active') {
      source.close();
      show(`The job is ${event.status}. Loading the result…`);
      setTimeout(() => window.location.reload(), 300);
    }
  };
  source.addEventListener('message', onEvent);
}
