// The chat pages' loader (see `fields::island_loader`, which fills in JS_FILE,
// WASM_FILE and SERVICE_WORKER): once the page is idle, Sou's browser bundle, then its
// islands; and the service worker, with its offer to update.
const load = () => import(JS_FILE).then(async (m) => {
  await m.default({ module_or_path: WASM_FILE });
  m.hydrate();
  for (const el of document.querySelectorAll('leptos-island')) {
    const island = m[el.dataset.component];
    if (island) island(el);
  }
});
if ('requestIdleCallback' in window) requestIdleCallback(load); else setTimeout(load);

if (SERVICE_WORKER && 'serviceWorker' in navigator) {
  // A new build's worker waits until the user says so, and the page reloads only
  // then, and never while an answer is being written (the stop button shows).
  let asked = false;
  const offer = () => { const bar = document.getElementById('update'); if (bar) bar.hidden = false; };
  navigator.serviceWorker.register('/sw.js').then((reg) => {
    if (reg.waiting && navigator.serviceWorker.controller) offer();
    reg.addEventListener('updatefound', () => {
      const worker = reg.installing;
      if (worker) worker.addEventListener('statechange', () => {
        if (worker.state === 'installed' && navigator.serviceWorker.controller) offer();
      });
    });
  });
  document.getElementById('update-now')?.addEventListener('click', () => {
    asked = true;
    navigator.serviceWorker.getRegistration().then((reg) => reg?.waiting?.postMessage('skip-waiting'));
  });
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    const reload = () => {
      if (document.querySelector('[data-testid=stop]')) setTimeout(reload, 500);
      else location.reload();
    };
    if (asked) reload();
  });
}
