// The widget page's side of the protocol with its host page (see /widget.js):
// {sou: 1, type: "open" | "close" | "resize", height?}. It listens only to its parent,
// and only when that parent's origin is on the site's list; it speaks only to those
// origins (a message for another origin is never delivered).
(() => {
  if (window.parent === window) return;
  const main = document.getElementById('embed');
  if (!main) return;
  const origins = (main.dataset.origins || '').split(' ').filter(Boolean);
  const PROTOCOL = 1;
  const say = (message) => {
    for (const origin of origins) window.parent.postMessage({ sou: PROTOCOL, ...message }, origin);
  };
  const focusMessage = () => document.getElementById('message')?.focus({ preventScroll: true });
  window.addEventListener('message', (e) => {
    if (e.source !== window.parent || !origins.includes(e.origin)) return;
    const m = e.data;
    if (!m || typeof m !== 'object' || m.sou !== PROTOCOL) return;
    if (m.type === 'open') focusMessage();
  });
  const close = document.getElementById('embed-close');
  if (close) {
    close.hidden = false;
    close.addEventListener('click', () => say({ type: 'close' }));
  }
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape') say({ type: 'close' }); });
  // The frame grows with the conversation, up to what the host allows.
  let last = 0;
  const measure = () => {
    const height = Math.ceil(document.documentElement.scrollHeight);
    if (Math.abs(height - last) > 4) { last = height; say({ type: 'resize', height }); }
  };
  new ResizeObserver(measure).observe(document.body);
  measure();
})();
