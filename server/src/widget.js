// Sou's widget, for a host page: <script src="https://SOU/widget.js" data-site="SITE_ID" async></script>
// It adds a launcher button and, once opened, an iframe on SOU/embed/SITE_ID. The two
// speak a small versioned protocol with postMessage — {sou: 1, type: "open" | "close" |
// "resize", height?} — and each side checks who speaks: here, the message must come
// from Sou's origin and from this iframe; there, from an origin on the site's list.
// Nothing here reads the host page, and the host page reads nothing of Sou's.
(() => {
  const me = document.currentScript;
  if (!me) return;
  const site = me.dataset.site || '';
  if (!/^[A-Za-z0-9_-]{22}$/.test(site)) return;
  const key = 'souWidget' + site;
  if (window[key]) return;
  window[key] = true;
  const sou = new URL(me.src, location.href).origin;
  const fr = (document.documentElement.lang || navigator.language || '').toLowerCase().startsWith('fr');
  const words = fr
    ? { open: 'Ouvrir l’assistant Sou', close: 'Fermer l’assistant Sou', frame: 'Assistant Sou' }
    : { open: 'Open the Sou assistant', close: 'Close the Sou assistant', frame: 'Sou assistant' };
  const PROTOCOL = 1;
  const MIN = 220;

  const button = document.createElement('button');
  button.type = 'button';
  button.setAttribute('aria-label', words.open);
  button.setAttribute('aria-expanded', 'false');
  button.dataset.souLauncher = site;
  Object.assign(button.style, {
    position: 'fixed', right: '16px', bottom: '16px', zIndex: '2147483000', width: '56px', height: '56px',
    borderRadius: '28px', border: '0', background: '#1f6f5c', color: '#fff', cursor: 'pointer',
    boxShadow: '0 2px 10px rgba(0,0,0,.25)', display: 'flex', alignItems: 'center', justifyContent: 'center',
    padding: '0',
  });
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '26');
  svg.setAttribute('height', '26');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('fill', 'currentColor');
  path.setAttribute('d', 'M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z');
  svg.appendChild(path);
  button.appendChild(svg);

  let frame = null;
  let open = false;
  let height = 0;

  const limit = () => Math.max(MIN, Math.min(640, window.innerHeight - 104));
  const fit = () => {
    if (!frame) return;
    frame.style.height = Math.min(limit(), Math.max(MIN, height || limit())) + 'px';
    frame.style.width = Math.min(400, window.innerWidth - 32) + 'px';
  };
  const tell = (type) => {
    if (frame && frame.contentWindow) frame.contentWindow.postMessage({ sou: PROTOCOL, type }, sou);
  };
  const show = () => {
    if (!frame) {
      frame = document.createElement('iframe');
      frame.src = sou + '/embed/' + site;
      frame.title = words.frame;
      frame.id = 'sou-widget-' + site;
      frame.setAttribute('referrerpolicy', 'origin');
      Object.assign(frame.style, {
        position: 'fixed', right: '16px', bottom: '84px', zIndex: '2147483000', border: '0',
        borderRadius: '12px', boxShadow: '0 4px 24px rgba(0,0,0,.25)', background: 'transparent',
        colorScheme: 'normal',
      });
      frame.addEventListener('load', () => { if (open) tell('open'); });
      button.setAttribute('aria-controls', frame.id);
      document.body.appendChild(frame);
    }
    open = true;
    frame.hidden = false;
    fit();
    button.setAttribute('aria-expanded', 'true');
    button.setAttribute('aria-label', words.close);
    tell('open');
    frame.focus();
  };
  const hide = (focusButton) => {
    if (!frame || !open) return;
    open = false;
    frame.hidden = true;
    button.setAttribute('aria-expanded', 'false');
    button.setAttribute('aria-label', words.open);
    tell('close');
    if (focusButton) button.focus();
  };

  button.addEventListener('click', () => (open ? hide(true) : show()));
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape' && open) hide(true); });
  window.addEventListener('resize', fit);
  window.addEventListener('message', (e) => {
    if (e.origin !== sou || !frame || e.source !== frame.contentWindow) return;
    const m = e.data;
    if (!m || typeof m !== 'object' || m.sou !== PROTOCOL) return;
    if (m.type === 'close') hide(true);
    else if (m.type === 'resize' && Number.isFinite(m.height)) { height = m.height; fit(); }
  });

  const mount = () => document.body.appendChild(button);
  if (document.body) mount(); else document.addEventListener('DOMContentLoaded', mount);
})();
